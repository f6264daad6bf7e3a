/**
 * Going live from the browser (decision 0082): the dashboard records the camera with MediaRecorder and
 * sends the recording's bytes over a WebSocket of their own; the server transcodes them into the RTMP
 * ingest. What both sides must agree on: the address, the frame limit, the close codes and what they say.
 */
import { MSG } from './messages';

/** The upgrade: `?id=<stream id>&service=<skin>`, signed in as the stream's owner. */
export const BROWSER_BROADCAST_PATH = '/api/streams/broadcast-from-browser';

/** The largest binary frame the server takes (the WebSocket server's payload limit); the page cuts chunks to it. */
export const BROWSER_MEDIA_FRAME_MAX_BYTES = 64 * 1024;

/** How often the page's MediaRecorder hands over a chunk: shorter is less delay, longer fewer frames. */
export const BROWSER_RECORDER_TIMESLICE_MS = 250;

/** Close codes of the broadcast socket (4000–4999 are the application's; 1009 is WebSocket's own "message too big"). */
export const BROWSER_BROADCAST_CLOSE = {
  binaryOnly: 4400,
  streamEnded: 4410,
  unreadable: 4422,
  backlog: 4429,
  tooLarge: 1009,
} as const;

const CLOSE_TEXT: Record<number, string> = {
  [BROWSER_BROADCAST_CLOSE.binaryOnly]: MSG.browserBroadcastBinaryOnly,
  [BROWSER_BROADCAST_CLOSE.streamEnded]: MSG.browserBroadcastStreamEnded,
  [BROWSER_BROADCAST_CLOSE.unreadable]: MSG.browserBroadcastUnreadable,
  [BROWSER_BROADCAST_CLOSE.backlog]: MSG.browserBroadcastBacklog,
  [BROWSER_BROADCAST_CLOSE.tooLarge]: MSG.browserBroadcastChunkTooLarge,
};

/** What the page says when the server closed the broadcast socket; null for a close the page asked for. */
export function browserBroadcastCloseText(code: number): string | null {
  if (code === 1000) return null;
  return CLOSE_TEXT[code] ?? MSG.browserBroadcastLost;
}
