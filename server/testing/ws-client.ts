/** A WebSocket client for integration tests: sends JSON frames, waits for the frames it expects. */
import WebSocket from 'ws';

export type Frame = Record<string, unknown> & { op: string };

export class WsClient {
  private readonly frames: Frame[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      for (const wake of this.waiters) wake();
    });
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
    const found = take();
    if (found) return found;
    return new Promise<Frame>((resolve, reject) => {
      const wake = () => {
        const frame = take();
        if (!frame) return;
        this.waiters.delete(wake);
        clearTimeout(timer);
        resolve(frame);
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
  }
}
