/**
 * A WebSocket client for integration tests: sends JSON frames, waits for the frames it expects.
 * Every frame it receives is checked against the contract the web parses with; one outside it fails
 * the next wait and the close.
 */
import WebSocket from 'ws';
import { z } from 'zod';
import { serverFrame } from '../../common/realtime';

export type Frame = Record<string, unknown> & { op: string };

export class WsClient {
  private readonly frames: Frame[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly outsideContract: string[] = [];
  /** `messages` frames received (each is taken apart into `message` frames). */
  batches = 0;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const raw = data.toString();
      const value = parseJson(raw);
      const checked = serverFrame.safeParse(value);
      // A `messages` frame is taken apart into its `message` frames, as the web client hands them over.
      if (checked.success && checked.data.op === 'messages') {
        this.batches += 1;
        for (const message of checked.data.messages) this.frames.push({ op: 'message', channel: checked.data.channel, message });
      } else if (checked.success) this.frames.push(value as Frame);
      else this.outsideContract.push(`${raw.slice(0, 500)}\n${z.prettifyError(checked.error)}`);
      for (const wake of this.waiters) wake();
    });
  }

  private contractError(): Error | undefined {
    if (this.outsideContract.length === 0) return undefined;
    return new Error(`frames outside the realtime contract:\n${this.outsideContract.join('\n')}`);
  }

  static async connect(baseUrl: string, cookie?: string, origin?: string, options: { query?: string } = {}): Promise<WsClient> {
    const headers: Record<string, string> = { ...(cookie ? { cookie: `ll_session=${cookie}` } : {}), ...(origin ? { origin } : {}) };
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws${options.query ?? ''}`, { headers });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new WsClient(socket);
  }

  send(frame: Record<string, unknown> | string): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame not yet taken that matches, waiting for it if needed. */
  async next(match: (frame: Frame) => boolean = () => true, timeoutMs = 5000): Promise<Frame> {
    const take = () => {
      const index = this.frames.findIndex(match);
      return index >= 0 ? this.frames.splice(index, 1)[0] : undefined;
    };
    const broken = this.contractError();
    if (broken) throw broken;
    const found = take();
    if (found) return found;
    return new Promise<Frame>((resolve, reject) => {
      const wake = () => {
        const outcome = this.contractError() ?? take();
        if (!outcome) return;
        this.waiters.delete(wake);
        clearTimeout(timer);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        reject(new Error(`no matching frame within ${timeoutMs} ms; seen ${JSON.stringify(this.frames)}`));
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }

  /** The next `message` frame carrying a realtime message of this type. */
  async message(type: string, timeoutMs = 5000): Promise<Frame & { channel: string; message: Record<string, unknown> }> {
    const frame = await this.next((f) => f.op === 'message' && (f.message as { type?: string } | undefined)?.type === type, timeoutMs);
    return frame as Frame & { channel: string; message: Record<string, unknown> };
  }

  /** Sends a request frame and waits for its answer (ack or error with the same id, subscribed or error on the channel). */
  async request(frame: Record<string, unknown> & { op: string }): Promise<Frame> {
    this.send(frame);
    if (frame.op === 'send') return this.next((f) => (f.op === 'ack' || f.op === 'error') && f.id === frame.id);
    return this.next((f) => (f.op === 'subscribed' || f.op === 'error') && f.channel === frame.channel);
  }

  close(): void {
    this.socket.close();
    const broken = this.contractError();
    if (broken) throw broken;
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
