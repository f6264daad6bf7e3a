/**
 * Toy-device access in a room (spec part 2 §4; common/api/toys.ts): the broadcaster's button, modals and
 * device, or the viewer's offer and controls. Mounted once in the meeting room and on the live stream.
 */
import type { ToyRoom } from '../../../common/api/toys';
import type { MeetingParticipant } from '../../../common/realtime';
import { useSession } from '../accounts';
import { HostToys } from './HostToys';
import { ViewerToys } from './ViewerToys';

interface ToyDeviceAccessProps {
  /** The stream's or the meeting's id. */
  streamId: number;
  room: ToyRoom;
  isHost: boolean;
  hostName: string;
  /** In a meeting: who is in the call, the viewers the host may choose from. */
  people?: readonly MeetingParticipant[];
}

export function ToyDeviceAccess({ streamId, room, isHost, hostName, people }: ToyDeviceAccessProps) {
  const session = useSession();
  if (!session.user) return null;
  const place = { stream_id: streamId, room };
  return isHost ? <HostToys place={place} myId={session.user.user_id} people={people} /> : <ViewerToys place={place} myId={session.user.user_id} hostName={hostName} />;
}
