/**
 * The device-access rules the pages apply to the server's records (spec part 2 §4): which record the
 * broadcaster's view follows, what each side shows, and where the room's toy operations go.
 */
import type { ToyAccess, ToyAccessRecord, ToyRoom } from '../../../common/api/toys';
import { OPEN_TOY_ACCESS } from '../../../common/rules/toys';
import { meetingChannelOf, streamChannelOf } from '../../../common/realtime-channels';

/** Where the access lives: a live stream or a meeting (whose id is its `stream_id`). */
export interface ToyPlace {
  stream_id: number;
  room: ToyRoom;
}

/** The room's channel, on which the viewer's commands and both sides' hang-ups are sent. */
export const channelOfPlace = (place: ToyPlace) => (place.room === 'meeting' ? meetingChannelOf(place.stream_id) : streamChannelOf(place.stream_id));

export const isOpenAccess = (access: ToyAccess) => OPEN_TOY_ACCESS.includes(access);

export const samePlace = (a: ToyPlace, b: { stream_id?: number | undefined; room?: ToyRoom | undefined }) => a.stream_id === b.stream_id && a.room === b.room;

/** The record the broadcaster's view follows: a pending one is preferred, then an approved one (spec part 2 §4). */
export function pickHostRecord(records: readonly ToyAccessRecord[]): ToyAccessRecord | null {
  const pending = records.find((record) => record.access === 'PENDING' || record.access === 'INIT');
  return pending ?? records.find((record) => record.access === 'APPROVED') ?? null;
}

/** The broadcaster's list with one record replaced (or added): the server's copy after a change. */
export function withRecord(records: readonly ToyAccessRecord[], record: ToyAccessRecord): ToyAccessRecord[] {
  const others = records.filter((old) => old.id !== record.id);
  return [record, ...others];
}

/**
 * What the broadcaster's modal shows: choosing a viewer and a tip ('Lovense Device Access'), waiting for
 * the viewer's tip (the access offer, before approval), or managing the approved viewer.
 */
export type HostView = 'choose' | 'waiting' | 'manage';

export function hostView(record: ToyAccessRecord | null): HostView {
  if (!record || !isOpenAccess(record.access)) return 'choose';
  return record.access === 'APPROVED' ? 'manage' : 'waiting';
}

/** What the viewer's page shows for their record (the server decides the viewer state; only open access shows anything). */
export function viewerView(record: ToyAccessRecord | null): ToyAccessRecord['viewer_state'] {
  if (!record || !isOpenAccess(record.access)) return 'NONE';
  return record.viewer_state;
}
