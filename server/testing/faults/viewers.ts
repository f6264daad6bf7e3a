/**
 * The fault suite's WebSocket clients: viewers of one stream's chat that behave as the web client does
 * (web/api/realtime.ts) — reconnect at once with a jitter on the restart code, back off otherwise,
 * resubscribe asking for what came after the last chat line and tip they saw, retry a subscription the
 * server could not answer — and chatters who send lines and keep what was acknowledged. Frames are
 * parsed as JSON only (no schema): a thousand sockets must not cost the machine the suite measures.
 */
import WebSocket from 'ws';
import { RESTART_JITTER_MS, SERVER_RESTARTING } from '../../../common/realtime-channels';

type Json = Record<string, unknown>;
interface Line { type?: string; text?: string; timetoken?: string }

const later = (a: string, b: string) => a.length > b.length || (a.length === b.length && a > b);
const backoff = (attempt: number) => Math.min(5_000, 250 * 2 ** attempt) * (0.8 + 0.4 * Math.random());

/** Where the viewers are sent: the instances up now (a restarted instance answers on a new port). */
export type Targets = () => string[];

export interface ViewerOptions {
  channel: string;
  targets: Targets;
  /** A signed-in viewer's session cookie value (chatters). */
  session?: string;
  /** Keeps every chat line text and tip id it sees (a sample of the viewers: the check that nothing reached them late or never). */
  remember?: boolean;
}

export class Viewer {
  private socket: WebSocket | null = null;
  private stopped = false;
  private attempt = 0;
  private subscribeAttempt = 0;
  private instance = 0;
  private firstConnection = true;
  private cursor = { comment: '0', tip: '0' };
  private readonly pendingSends = new Map<string, { resolve: (outcome: SendOutcome) => void; timer: NodeJS.Timeout }>();
  private nextId = 1;
  /** The moment its current subscription was answered (null while it has none). */
  subscribedAt: number | null = null;
  /** When it last lost its subscription (a close), null once it is back. */
  lostAt: number | null = null;
  /** When its socket last closed. */
  lastCloseAt = 0;
  /** Every close it met: when, with which code. */
  readonly closeLog: Array<{ at: number; code: number }> = [];
  /** The close codes it met, by code. */
  readonly closes = new Map<number, number>();
  /** Subscriptions the server could not answer (then retried), by error code. */
  readonly subscribeErrors = new Map<string, number>();
  readonly seenLines = new Set<string>();
  readonly seenTips = new Set<string>();
  /** Replays that said lines were skipped (more than the bound missed). */
  skippedReplays = 0;
  /** The instance its current or last socket went to. */
  connectedTo: string | null = null;

  constructor(private readonly o: ViewerOptions, index: number) {
    this.instance = index;
  }

  get remembers(): boolean {
    return Boolean(this.o.remember);
  }

  get subscribed(): boolean {
    return this.subscribedAt !== null;
  }

  start(): void {
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.socket?.terminate();
    for (const [, pending] of this.pendingSends) {
      clearTimeout(pending.timer);
      pending.resolve('unanswered');
    }
    this.pendingSends.clear();
  }

  /** A COMMENT sent on the channel: acknowledged, refused (with its code) or unanswered. */
  send(text: string, timeoutMs = 5_000): Promise<SendOutcome> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || !this.subscribed) return Promise.resolve('unanswered');
    const id = `s${this.nextId++}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pendingSends.delete(id);
        resolve('unanswered');
      }, timeoutMs);
      this.pendingSends.set(id, { resolve, timer });
      socket.send(JSON.stringify({ op: 'send', channel: this.o.channel, type: 'COMMENT', text, id }));
    });
  }

  private connect(): void {
    if (this.stopped) return;
    const targets = this.o.targets();
    if (targets.length === 0) return this.retryLater(backoff(this.attempt++));
    // The first connection by its index (half on each instance), then wherever a balancer would send it.
    const base = targets[this.firstConnection ? this.instance % targets.length : Math.floor(Math.random() * targets.length)]!;
    this.firstConnection = false;
    this.connectedTo = base;
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`, { headers: this.o.session ? { cookie: `ll_session=${this.o.session}` } : {} });
    this.socket = socket;
    socket.on('open', () => this.subscribe());
    socket.on('message', (data) => this.receive(data.toString()));
    socket.on('error', () => undefined); // a close follows
    socket.on('close', (code) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.closes.set(code, (this.closes.get(code) ?? 0) + 1);
      this.closeLog.push({ at: Date.now(), code });
      if (this.subscribedAt !== null) this.lostAt = Date.now();
      this.lastCloseAt = Date.now();
      this.subscribedAt = null;
      for (const [id, pending] of this.pendingSends) {
        clearTimeout(pending.timer);
        pending.resolve('unanswered');
        this.pendingSends.delete(id);
      }
      if (this.stopped) return;
      if (code === SERVER_RESTARTING.code) {
        this.attempt = 0;
        this.retryLater(Math.random() * RESTART_JITTER_MS);
      } else this.retryLater(backoff(this.attempt++));
    });
  }

  /** Its state in a few words, for the report of a check it failed. */
  describe(): string {
    const ago = (at: number) => `${((Date.now() - at) / 1000).toFixed(1)} s ago`;
    const socket = this.socket ? ['connecting', 'open', 'closing', 'closed'][this.socket.readyState] : 'no socket';
    const subscription = this.subscribedAt === null ? 'not subscribed' : `subscribed ${ago(this.subscribedAt)}`;
    const lastClose = this.closeLog.at(-1);
    return `${socket} to ${this.connectedTo ?? 'nowhere'}, ${subscription}, ${lastClose ? `last closed ${ago(lastClose.at)} (${lastClose.code})` : 'never closed'}, ${this.closeLog.length} closes, ${this.seenLines.size} lines and ${this.seenTips.size} tips seen`;
  }

  private retryLater(ms: number) {
    setTimeout(() => this.connect(), ms);
  }

  private subscribe() {
    const after = this.cursor.comment !== '0' || this.cursor.tip !== '0' ? { after: this.cursor } : {};
    this.socket?.send(JSON.stringify({ op: 'subscribe', channel: this.o.channel, ...after }));
  }

  private receive(raw: string) {
    let frame: Json;
    try {
      frame = JSON.parse(raw) as Json;
    } catch {
      return;
    }
    switch (frame.op) {
      case 'subscribed':
        this.attempt = 0;
        this.subscribeAttempt = 0;
        this.subscribedAt = Date.now();
        if ((frame.replay as { skipped?: boolean } | undefined)?.skipped) this.skippedReplays += 1;
        this.see(frame.history as Line[]);
        return;
      case 'message':
        return this.see([frame.message as Line]);
      case 'messages':
        return this.see(frame.messages as Line[]);
      case 'ack':
      case 'error': {
        const pending = typeof frame.id === 'string' ? this.pendingSends.get(frame.id) : undefined;
        if (pending) {
          this.pendingSends.delete(frame.id as string);
          clearTimeout(pending.timer);
          pending.resolve(frame.op === 'ack' ? 'acknowledged' : { refused: String(frame.code) });
          return;
        }
        if (frame.op === 'error' && frame.channel === this.o.channel) {
          // The subscription was not answered (the database busy or away): asked again, backing off, as the page does.
          const code = String(frame.code);
          this.subscribeErrors.set(code, (this.subscribeErrors.get(code) ?? 0) + 1);
          setTimeout(() => this.subscribe(), backoff(this.subscribeAttempt++));
        }
        return;
      }
    }
  }

  private see(lines: Line[]) {
    for (const line of lines) {
      if (!line.timetoken) continue;
      if (line.type === 'COMMENT') {
        if (later(line.timetoken, this.cursor.comment)) this.cursor.comment = line.timetoken;
        if (this.o.remember && line.text) this.seenLines.add(line.text);
      } else if (line.type === 'TIP') {
        if (later(line.timetoken, this.cursor.tip)) this.cursor.tip = line.timetoken;
        if (this.o.remember) this.seenTips.add(line.timetoken);
      }
    }
  }
}

export type SendOutcome = 'acknowledged' | 'unanswered' | { refused: string };

/** A one-off subscription on `base` after a cursor: the lines and tip ids the stored history replays. */
export async function replayAfter(base: string, channel: string, after: { comment: string; tip: string }): Promise<{ lines: string[]; tips: string[]; skipped: boolean }> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const frame = await new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer to a replay subscription in 10 s')), 10_000);
      socket.on('message', (data) => {
        const parsed = JSON.parse(data.toString()) as Json;
        if ((parsed.op === 'subscribed' || parsed.op === 'error') && parsed.channel === channel) {
          clearTimeout(timer);
          resolve(parsed);
        }
      });
      socket.send(JSON.stringify({ op: 'subscribe', channel, after }));
    });
    if (frame.op !== 'subscribed') throw new Error(`replay refused: ${String(frame.code)} ${String(frame.message)}`);
    const history = frame.history as Line[];
    return {
      lines: history.filter((l) => l.type === 'COMMENT').map((l) => l.text ?? ''),
      tips: history.filter((l) => l.type === 'TIP').map((l) => l.timetoken ?? ''),
      skipped: Boolean((frame.replay as { skipped?: boolean } | undefined)?.skipped),
    };
  } finally {
    socket.terminate();
  }
}
