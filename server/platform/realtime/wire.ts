/**
 * Server frames built once for every socket that gets them (decision 0031): the JSON text, and the
 * same text as a whole WebSocket frame (header and payload in one buffer), which a socket with nothing
 * queued in `ws` takes in one `write` of its TCP socket instead of a `ws.send` per socket (options
 * objects, a header buffer and a corked two-buffer `writev` each).
 */
import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

export interface PreparedFrame {
  /** The frame's JSON, for `ws.send` when the direct write is not possible. */
  readonly text: Buffer;
  /** A final, unmasked text frame (RFC 6455 §5.2) carrying `text`. */
  readonly wire: Buffer;
}

const FIN_TEXT = 0x81;

export function prepareFrame(text: Buffer): PreparedFrame {
  const length = text.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const wire = Buffer.allocUnsafe(headerLength + length);
  wire[0] = FIN_TEXT;
  if (headerLength === 2) wire[1] = length;
  else if (headerLength === 4) {
    wire[1] = 126;
    wire.writeUInt16BE(length, 2);
  } else {
    wire[1] = 127;
    wire.writeUInt32BE(0, 2);
    wire.writeUInt32BE(length, 6);
  }
  text.copy(wire, headerLength);
  return { text, wire };
}

/** The parts of ws 8's server-side WebSocket and Sender (node_modules/ws/lib/sender.js) the direct write relies on. */
interface WsInternals {
  _socket?: Socket;
  _sender?: { _state?: unknown; _queue?: unknown[] };
}

/** `Sender`'s state while it is neither compressing nor reading a Blob: what it sends goes out at once, in order. */
const SENDER_IDLE = 0;
const AS_TEXT = { binary: false } as const;

/**
 * Writes prepared frames to one open socket, in order with what `ws` sends on it: straight to the TCP
 * socket whenever the Sender has nothing queued (it queues while it compresses, which this server does
 * not offer), otherwise through `ws.send`; always through `ws.send` if the ws internals are not as
 * expected.
 */
export function frameWriter(socket: WebSocket): (frame: PreparedFrame) => void {
  const { _socket: raw, _sender: sender } = socket as unknown as WsInternals;
  const direct = raw !== undefined && sender !== undefined && sender._state === SENDER_IDLE && Array.isArray(sender._queue);
  if (!direct) return (frame) => socket.send(frame.text, AS_TEXT);
  const queue = sender._queue!;
  return (frame) => {
    if (sender._state === SENDER_IDLE && queue.length === 0 && raw.writable) raw.write(frame.wire);
    else socket.send(frame.text, AS_TEXT);
  };
}
