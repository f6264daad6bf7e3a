/** Meetings server state: the calendar, one meeting, and the room's calls. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { meetings } from '../../../common/api/calls';
import type { MeetingFields, MeetingRoom } from '../../../common/api/meetings';
import type { CallOutput } from '../../../common/api';
import { IDEMPOTENCY_HEADER } from '../../../common/api/descriptor';
import type { ApiError } from '../../api/client';
import { call } from '../../api/client';
import { walletKeys } from '../wallet';
import type { ComplaintType } from '../streams';
import { meetingKeys } from './invitations-api';

export { meetingKeys, useNewInvitations } from './invitations-api';

/** The calendar's meetings; the server counts their invitations as seen, so the side bar's count drops to 0. */
export function useMeetingList() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: meetingKeys.list(),
    queryFn: async () => {
      const list = (await call(meetings.scheduleMeetings, {})).meetings;
      // A count asked before the list was answered would put back the invitations just seen.
      await queryClient.cancelQueries({ queryKey: meetingKeys.invitations() });
      queryClient.setQueryData(meetingKeys.invitations(), 0);
      return list;
    },
  });
}

export const useMeetingDetail = (id: number | null) =>
  useQuery({ queryKey: meetingKeys.detail(id ?? 0), queryFn: async () => (await call(meetings.scheduleMeeting, { id: id ?? 0 })).data, enabled: id !== null, retry: false });

/** The host's followers to invite, 200 a page (the first page; a search narrows it). */
export function useSaveMeeting() {
  const queryClient = useQueryClient();
  return useMutation<number, ApiError, { id: number | null; params: MeetingFields }>({
    mutationFn: async ({ id, params }) =>
      id === null ? (await call(meetings.createMeeting, params)).data.meeting_id : (await call(meetings.updateScheduleMeeting, { id, params })).data.meeting_id,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: meetingKeys.all }),
  });
}

export function useDeleteMeeting() {
  const queryClient = useQueryClient();
  return useMutation<unknown, ApiError, number>({
    mutationFn: (id) => call(meetings.deleteScheduleMeeting, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meetingKeys.all }),
  });
}

/** Opening the room; the waiting room asks again every 7 s while the host is away. */
export const useJoinMeeting = (id: number, enabled: boolean, refetchMs: number | false) =>
  useQuery({ queryKey: meetingKeys.room(id), queryFn: async () => (await call(meetings.joinMeeting, { id })).data, enabled, retry: false, refetchInterval: refetchMs, refetchOnWindowFocus: false, staleTime: Infinity });

export type PayAnswer = CallOutput<typeof meetings.payMeeting>;

/** Pays the meeting tip (or tips the host) with an Idempotency-Key; the balance follows the answer. */
export function usePayMeeting(id: number) {
  const queryClient = useQueryClient();
  return useMutation<PayAnswer, ApiError, { amount: number; key: string }>({
    mutationFn: ({ amount, key }) => call(meetings.payMeeting, { id, amount }, { [IDEMPOTENCY_HEADER]: key }),
    onSuccess: (answer) => {
      queryClient.setQueryData(walletKeys.balance(), answer.balance);
      queryClient.setQueryData<MeetingRoom>(meetingKeys.room(id), (room) => room && { ...room, paid: answer.paid, owed: answer.owed });
      // Paid up: the room is asked again for what opens the conference (the server withholds it until now).
      if (answer.paid) void queryClient.invalidateQueries({ queryKey: meetingKeys.room(id) });
    },
  });
}

export const useKickParticipant = (id: number) => useMutation<unknown, ApiError, number>({ mutationFn: (userId) => call(meetings.kickFromMeeting, { id, user_id: userId }) });
export const useEndMeeting = (id: number) => useMutation<unknown, ApiError, void>({ mutationFn: () => call(meetings.endMeeting, { id }) });
export const useRateMeeting = (id: number) => useMutation<unknown, ApiError, number>({ mutationFn: (rating) => call(meetings.rateMeeting, { id, rating }) });
export const useReportMeeting = (id: number) =>
  useMutation<unknown, ApiError, { type: ComplaintType; user_comment?: string }>({ mutationFn: (input) => call(meetings.reportMeeting, { id, ...input }) });
export const useBookmarkMeeting = (id: number) => useMutation<boolean, ApiError, boolean>({ mutationFn: async (save) => (await call(meetings.saveMeeting, { id, save })).saved });
