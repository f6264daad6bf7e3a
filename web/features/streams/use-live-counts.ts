import { useEffect, useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { streamChannelOf } from '../../../common/realtime-channels';
import { shownLikes, shownViewers } from '../../../common/rules/stream-display';
import { realtimeClient } from '../../api/realtime';

interface Heard {
  /** The lookup these figures add to: a newer lookup already counts the likes heard before it. */
  base: StreamInfo;
  /** The latest VIEWERS frame; null until one arrives. */
  viewers: number | null;
  /** LIKE frames since `base` was read. */
  likes: number;
}

/**
 * The stream page's viewer and like counts as the spec shows them, kept current by the stream's
 * channel: VIEWERS when someone arrives or leaves, LIKE for every like given.
 */
export function useLiveCounts(stream: StreamInfo): { viewers: number; likes: number } {
  const [heard, setHeard] = useState<Heard>({ base: stream, viewers: null, likes: 0 });
  if (heard.base !== stream) setHeard({ base: stream, viewers: heard.viewers, likes: 0 });

  useEffect(
    () =>
      realtimeClient().subscribe(streamChannelOf(stream.stream_id), (message) => {
        if (message.type === 'LIKE') setHeard((h) => ({ ...h, likes: h.likes + message.likes }));
        else if (message.type === 'VIEWERS') setHeard((h) => ({ ...h, viewers: message.viewers }));
      }),
    [stream.stream_id],
  );

  return {
    viewers: shownViewers(heard.viewers ?? stream.viewers),
    likes: shownLikes(stream) + (heard.base === stream ? heard.likes : 0),
  };
}
