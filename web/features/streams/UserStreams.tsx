import { MSG } from '../../../common/messages';
import { useUserStreams } from './api';
import { StreamGrid } from './StreamGrid';

/** The profile's Streams tab: live first, then replays (user-streams). */
export function UserStreams({ userId }: { userId: number }) {
  return <StreamGrid query={useUserStreams(userId)} label="Streams" empty={MSG.noStreamsFound} />;
}
