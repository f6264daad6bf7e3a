/**
 * Going live from the browser (decision 0082): the dashboard records the camera with MediaRecorder and
 * sends the recording's bytes over a WebSocket of their own; the server transcodes them into the RTMP
 * ingest. What both sides must agree on: the address, the frame limit, the close codes and what they say.
 */
import { MSG } from './messages';

/** What the broadcaster panel says (only its page loads them, so they stay out of the catalogue every page carries). */
export const BROWSER_BROADCAST_TEXT = {
  binaryOnly: 'This connection carries the recorder’s media only: the broadcast was stopped.',
  chunkTooLarge: 'A piece of media was larger than the server takes: the broadcast was stopped.',
  backlog: 'The server could not keep up with your camera: choose a smaller picture and start again.',
  unreadable: 'The server could not read your browser’s media, or the ingest refused it: the broadcast was stopped.',
  refused: 'The server refused the broadcast connection: it may be sent from another tab already, or your session ended. Reload the dashboard and try again.',
  slowLink: 'Your connection is too slow for this picture: the broadcast was stopped. Choose a smaller camera resolution or use OBS.',
  lost: 'The connection to the server was lost: the broadcast continues for a few seconds if you start again.',
  permissionDenied: 'Camera and microphone access was denied: allow it in the browser’s site settings, then try again.',
  noDevices: 'No camera or microphone was found.',
  unsupported: 'This browser cannot record a broadcast: use a recent Chrome, Edge or Firefox, or OBS with the details below.',
  captureFailed: 'The camera or microphone could not be started: {reason}',
} as const;

/** The upgrade: `?id=<stream id>&service=<skin>`, signed in as the stream's owner. */
export const BROWSER_BROADCAST_PATH = '/api/streams/broadcast-from-browser';

/** The largest binary frame the server takes (the WebSocket server's payload limit); the page cuts chunks to it. */
export const BROWSER_MEDIA_FRAME_MAX_BYTES = 64 * 1024;

/** How often the page's MediaRecorder hands over a chunk: shorter is less delay, longer fewer frames. */
export const BROWSER_RECORDER_TIMESLICE_MS = 250;

/** Close codes of the broadcast socket (4000–4999 are the application's; 1009 is WebSocket's own "message too big"). */
export const BROWSER_BROADCAST_CLOSE = {
  binaryOnly: 4400,
  /** Nothing arrived for a while: the page or its network is gone. */
  idle: 4408,
  streamEnded: 4410,
  unreadable: 4422,
  backlog: 4429,
  tooLarge: 1009,
} as const;

const CLOSE_TEXT: Record<number, string> = {
  [BROWSER_BROADCAST_CLOSE.binaryOnly]: BROWSER_BROADCAST_TEXT.binaryOnly,
  [BROWSER_BROADCAST_CLOSE.idle]: BROWSER_BROADCAST_TEXT.lost,
  [BROWSER_BROADCAST_CLOSE.streamEnded]: MSG.browserBroadcastStreamEnded,
  [BROWSER_BROADCAST_CLOSE.unreadable]: BROWSER_BROADCAST_TEXT.unreadable,
  [BROWSER_BROADCAST_CLOSE.backlog]: BROWSER_BROADCAST_TEXT.backlog,
  [BROWSER_BROADCAST_CLOSE.tooLarge]: BROWSER_BROADCAST_TEXT.chunkTooLarge,
};

/** What the page says when the server closed the broadcast socket; null for a close the page asked for. */
export function browserBroadcastCloseText(code: number): string | null {
  if (code === 1000) return null;
  return CLOSE_TEXT[code] ?? BROWSER_BROADCAST_TEXT.lost;
}
