/**
 * Where toy-device access lives: a live stream (its owner and its signed-in watchers) or a meeting (its
 * host and its invitees still in the call). One question for the rest of the module: who hosts the
 * room, is it open, and is this user a viewer of it.
 */
import type { ToyRoom } from '../../../common/api/toys';
import { MSG } from '../../../common/messages';
import type { Principal } from '../../platform/http/auth';
import { conflict, forbidden, notFound, type AppError } from '../../platform/http/errors';
import type { MeetingsService } from '../meetings';
import type { StreamAccess, StreamReads, Viewer } from '../streams';

export interface Place {
  room: ToyRoom;
  streamId: number;
}

export interface Room extends Place {
  hostId: number;
  /** A stream broadcasting now, or a meeting that has not ended. */
  open: boolean;
}

/** How a refusal of someone outside the room reads: 404 over HTTP (the room is not told), 403 on a channel. */
export type Outsider = 'hidden' | 'forbidden';

export function createRooms(deps: {
  streamReads: Pick<StreamReads, 'findStream'>;
  streamAccess: Pick<StreamAccess, 'lookup' | 'assertPaidUp'>;
  meetings: MeetingsService;
}) {
  const { streamReads, streamAccess, meetings } = deps;
  const missing = (place: Place): AppError => notFound(place.room === 'meeting' ? MSG.meetingUnavailable : MSG.streamNotAvailable);
  const outside = (place: Place, outsider: Outsider): AppError => (outsider === 'hidden' ? missing(place) : forbidden(place.room === 'meeting' ? MSG.meetingUnavailable : MSG.streamNotAvailable));

  async function roomOf(place: Place, userId: number): Promise<Room & { viewerStanding: boolean }> {
    if (place.room === 'meeting') {
      const standing = await meetings.roomStanding(place.streamId, userId);
      if (!standing) throw missing(place);
      return { ...place, hostId: standing.hostId, open: !standing.ended, viewerStanding: standing.invitee };
    }
    const row = await streamReads.findStream(place.streamId);
    if (row.hidden && row.userId !== userId) throw missing(place);
    return { ...place, hostId: row.userId, open: row.live && !row.hidden, viewerStanding: row.userId !== userId };
  }

  /**
   * A stream's viewer must still be allowed to watch it (bans, audience, rating, the pay wall): asked of
   * the streams rules with their request's skin, or the host's for the one they pick.
   */
  async function mayWatch(place: Place, viewer: Viewer): Promise<boolean> {
    try {
      const row = await streamAccess.lookup(place.streamId, viewer);
      await streamAccess.assertPaidUp(row, viewer);
      return true;
    } catch (error) {
      if (error instanceof Error && 'status' in error) return false;
      throw error;
    }
  }

  return {
    /** The room and the caller's place in it: the host, a viewer, or refused as an outsider. */
    async partyOf(place: Place, viewer: Viewer & { principal: Principal }, outsider: Outsider): Promise<{ room: Room; host: boolean }> {
      const userId = viewer.principal.userId;
      const room = await roomOf(place, userId);
      if (room.hostId === userId) return { room, host: true };
      if (!room.viewerStanding || (place.room === 'stream' && !(await mayWatch(place, viewer)))) throw outside(place, outsider);
      return { room, host: false };
    },

    /** The broadcaster's pick must be a viewer of the room (not the broadcaster). */
    async assertViewer(room: Room, viewerId: number, skin: Viewer['skin']) {
      if (viewerId === room.hostId) throw conflict(MSG.toyNotForYourself, 'viewer_id');
      const standing = await roomOf(room, viewerId);
      const principal: Principal = { userId: viewerId, role: 'user', perms: [], suspended: false };
      if (!standing.viewerStanding || (room.room === 'stream' && !(await mayWatch(room, { principal, skin, guestKey: '' })))) {
        throw notFound(MSG.toyNotInRoom);
      }
    },

    assertOpen(room: Room) {
      if (!room.open) throw conflict(room.room === 'meeting' ? MSG.meetingIsOver : MSG.toyRoomClosed);
    },
  };
}

export type Rooms = ReturnType<typeof createRooms>;
