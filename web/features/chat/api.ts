/** Chat server state: translations, banning a viewer, and the realtime channel of a stream. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { streamInteractions, translation } from '../../../common/api/calls';
import type { RealtimeMessage, SendRequest } from '../../../common/realtime';
import { call } from '../../api/client';
import type { ApiError } from '../../api/client';
import { realtimeClient } from '../../api/realtime';
import type { ConnectionStatus, RealtimeError } from '../../api/realtime';
import { announcedLines, appendLines, appendReplay, mergeHistory, toChatLine, withoutComment } from './chat-lines';
import type { ChatLine } from './chat-lines';

export const chatKeys = {
  all: ['chat'] as const,
  translation: (lang: string, text: string) => [...chatKeys.all, 'translation', lang, text] as const,
};

/** One chat line in the reader's language; the same text is translated once per page. */
export function useTranslation(text: string, lang: string, enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.translation(lang, text),
    queryFn: async () => (await call(translation.translate, { message: text, lang })).translated,
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}

export function useBanViewer() {
  return useMutation<unknown, ApiError, { stream_id: number; user_id: number }>({
    mutationFn: (input) => call(streamInteractions.banViewer, input),
  });
}

/** The realtime connection's state, for the "Reconnecting…" note. */
export function useConnectionStatus(): ConnectionStatus {
  const client = realtimeClient();
  return useSyncExternalStore(
    (notify) => client.onStatus(notify),
    () => client.status,
    () => 'idle',
  );
}

export type ChannelState = { state: 'joining' } | { state: 'joined' } | { state: 'refused'; error: RealtimeError };

interface ChannelOptions {
  /** Every message of the channel, lines or not (likes, service messages); `line`: its COMMENT or TIP line. */
  onMessage?: (message: RealtimeMessage, line: ChatLine | null) => void;
  onRefused?: (error: RealtimeError) => void;
}

/** Subscribes to a realtime channel while mounted and keeps its chat lines (history first). */
export function useChatChannel(channel: string | null, options: ChannelOptions) {
  const [lines, setLines] = useState<ChatLine[]>([]);
  const [state, setState] = useState<ChannelState>({ state: 'joining' });
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    if (!channel) return;
    return realtimeClient().subscribe(channel, {
      onSubscribed: (history, replay) => {
        const historyLines = history.map(toChatLine).filter((l): l is ChatLine => l !== null);
        setLines((current) => (replay ? appendReplay(current, historyLines, replay.skipped) : mergeHistory(current, historyLines)));
        setState({ state: 'joined' });
      },
      onMessage: (message) => {
        if (message.type === 'LINE-REMOVED') {
          const { timetoken } = message.data;
          setLines((current) => withoutComment(current, timetoken));
        }
        const line = toChatLine(message);
        const added = line ? [line] : announcedLines(message);
        if (added.length > 0) setLines((current) => appendLines(current, added));
        latest.current.onMessage?.(message, line);
      },
      onError: (error) => {
        setState({ state: 'refused', error });
        latest.current.onRefused?.(error);
      },
    });
  }, [channel]);

  const addLine = (line: ChatLine) => setLines((current) => appendLines(current, [line]));
  const send = (request: SendRequest) => (channel ? realtimeClient().send(channel, request) : Promise.reject(new Error('No channel')));
  return { lines, state, addLine, send };
}
