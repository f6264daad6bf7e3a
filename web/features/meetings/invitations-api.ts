/**
 * What every page's side bar needs of meetings: the cache keys and the count of new invitations. Kept apart
 * from api.ts so the side bar's first load takes these and not the calendar's and the room's calls.
 */
import { useQuery } from '@tanstack/react-query';
import { meetings } from '../../../common/api/calls';
import { call } from '../../api/client';

export const meetingKeys = {
  all: ['meetings'] as const,
  list: () => [...meetingKeys.all, 'list'] as const,
  detail: (id: number) => [...meetingKeys.all, 'detail', id] as const,
  room: (id: number) => [...meetingKeys.all, 'room', id] as const,
  invitations: () => [...meetingKeys.all, 'invitations'] as const,
};

/** Invitations the calendar has not shown yet (the side bar's count); a mounted badge asks again when the count is a minute old. */
export const useNewInvitations = (enabled: boolean) =>
  useQuery({ queryKey: meetingKeys.invitations(), queryFn: async () => (await call(meetings.meetingInvitations, {})).count, enabled, staleTime: 60_000 });

