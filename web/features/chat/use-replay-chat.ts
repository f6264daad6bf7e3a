/** A replay's chat in time with its video: the lines said up to the playhead, loaded a page at a time ahead of it. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { RefObject } from 'react';
import { chat as chatCalls } from '../../../common/api/calls';
import { call } from '../../api/client';
import { chatKeys } from './api';
import type { ChatLine } from './chat-lines';
import { afterSeek, countUpTo, pageToFetch, replayChatFrom, shownLines, withPage } from './replay-chat';

/** The video's events that move the chat: playing on, a seek (as it starts and once done), a new source (Watch Again). */
const TIME_EVENTS = ['timeupdate', 'seeking', 'seeked', 'emptied'] as const;

export interface ReplayChatView {
  lines: ChatLine[];
  /** The lines at the playhead are being fetched. */
  loading: boolean;
  failed: boolean;
  retry: () => void;
}

/**
 * Follows the video in `videoRef` (whichever element it holds: the player makes a new one for a new
 * source) by its media events, caught on the document as they do not bubble.
 */
export function useReplayChat(streamId: number, videoRef: RefObject<HTMLVideoElement | null>): ReplayChatView {
  // From the start: the player reports where it is within a quarter of a second of playing.
  const [timeMs, setTimeMs] = useState(0);
  const [chat, setChat] = useState(replayChatFrom);

  useEffect(() => {
    const onTime = (event: Event) => {
      const video = videoRef.current;
      if (!video || event.target !== video) return;
      const at = Math.round(video.currentTime * 1000);
      setTimeMs(at);
      setChat((current) => afterSeek(current, at));
    };
    for (const type of TIME_EVENTS) document.addEventListener(type, onTime, true);
    return () => {
      for (const type of TIME_EVENTS) document.removeEventListener(type, onTime, true);
    };
  }, [videoRef]);

  const from = pageToFetch(chat, timeMs);
  const page = useQuery({
    queryKey: [...chatKeys.all, 'replay', streamId, from],
    queryFn: async () => ({ from: from ?? 0, ...(await call(chatCalls.replayChat, { id: streamId, from_ms: from ?? 0 })) }),
    enabled: from !== null,
    staleTime: Infinity,
    retry: false,
  });
  // The page asked for arrived: taken once (taking it moves `next` past where it was asked from).
  if (page.data && page.data.from === chat.next) setChat(withPage(chat, page.data.from, page.data));

  const count = countUpTo(chat.lines, timeMs);
  const lines = useMemo(() => shownLines(chat.lines, count), [chat.lines, count]);
  return {
    lines,
    loading: page.isFetching && (chat.next ?? Infinity) <= timeMs,
    failed: page.isError,
    retry: () => void page.refetch(),
  };
}
