import { MSG } from '../../../common/messages';
import { useSavedStreams, useUserStreams } from './api';
import { StreamGrid } from './StreamGrid';

/** The profile's Streams tab: live first, then replays (user-streams); `adult` (?adult=true) lists 18+ streams too. */
export function UserStreams({ userId, adult = false }: { userId: number; adult?: boolean }) {
  return <StreamGrid query={useUserStreams(userId, adult)} label="Streams" empty={MSG.noStreamsFound} />;
}

/** The profile's Saved tab, the owner's own bookmarks (saved-streams). */
export function SavedStreams() {
  return <StreamGrid query={useSavedStreams()} label="Saved streams" empty={MSG.noStreamsFound} />;
}
