/**
 * The fault suite's load on the two instances: viewers in one stream's chat, chatters sending lines over
 * their sockets, tips over HTTP with idempotency keys, sign-ins and reads. Every answer is recorded:
 * what was acknowledged (the checks look for all of it), what is unknown (tips sent again with the same
 * key once the fault is over), and every status, so that a single 500 is seen.
 */
import { DEMO_PASSWORD } from '../../demo/demo-data';
import { TipSender, type Tipper } from '../tip-load';
import { Viewer, type Targets } from './viewers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface LoadOptions {
  streamId: number;
  targets: Targets;
  viewers: number;
  /** Signed-in viewers that also send a line every ~2.5 s (under the chat's 10 lines in 10 s). */
  chatters: Tipper[];
  tippers: Tipper[];
  /** Tip requests in flight at once. */
  tipClients: number;
  /** Pause of each tip client between tips (keeps a phase's tips under the replay bound). */
  tipPauseMs: number;
  /** Viewers that keep every line and tip they see. */
  rememberingViewers: number;
}

export interface AcknowledgedTip extends PendingTip {
  transferId: number;
}

export interface PendingTip {
  key: string;
  tipper: Tipper;
  amount: number;
  /** The phase it was first sent in. */
  phase: string;
}

const AMOUNTS = [1, 2, 5, 10];
/** Per tipper per minute the server takes 30: a tipper sends at most this many in the whole run. */
const TIPS_PER_TIPPER = 25;

export class Load {
  readonly viewers: Viewer[] = [];
  private readonly chatters: Viewer[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly senders = new Map<string, TipSender>();
  /** The phase (fault) now under way: lines and tips carry it. */
  phase = 'start';

  readonly acknowledgedLines = new Map<string, string>(); // text → the phase it was sent in
  readonly refusedLines = new Map<string, number>(); // code → count
  unansweredLines = 0;
  readonly acknowledgedTips = new Map<string, AcknowledgedTip>(); // key → tip
  readonly pendingTips = new Map<string, PendingTip>();
  readonly refusedTips = new Map<number, number>(); // status → count
  /** Status → count of every HTTP answer (0: no answer), by kind of request. */
  readonly statuses = new Map<string, Map<number, number>>();
  private tipSerial = 0;
  private readonly tipsOf = new Map<number, number>();

  constructor(private readonly o: LoadOptions) {}

  private count(kind: string, status: number) {
    const of = this.statuses.get(kind) ?? new Map<number, number>();
    of.set(status, (of.get(status) ?? 0) + 1);
    this.statuses.set(kind, of);
  }

  /** Answers with status 500 or more other than 503 (and 507, the disk-full answer), as "kind status×count". */
  serverErrors(): string[] {
    const bad: string[] = [];
    for (const [kind, of] of this.statuses) for (const [status, n] of of) if (status >= 500 && status !== 503 && status !== 507) bad.push(`${kind} ${status}×${n}`);
    for (const [code, n] of this.refusedLines) if (code === 'internal') bad.push(`chat send internal×${n}`);
    return bad;
  }

  async start(): Promise<void> {
    const channel = `stream:${this.o.streamId}`;
    for (let i = 0; i < this.o.viewers; i++) {
      const viewer = new Viewer({ channel, targets: this.o.targets, remember: i < this.o.rememberingViewers }, i);
      this.viewers.push(viewer);
      viewer.start();
      if (i % 50 === 49) await sleep(50); // not a thousand handshakes in the same millisecond
    }
    for (const [i, chatter] of this.o.chatters.entries()) {
      const viewer = new Viewer({ channel, targets: this.o.targets, session: chatter.token }, i);
      this.chatters.push(viewer);
      viewer.start();
    }
    this.running = true;
    this.loops = [
      ...this.chatters.map((viewer, i) => this.chatLoop(viewer, i)),
      ...Array.from({ length: this.o.tipClients }, (_, c) => this.tipLoop(c)),
      this.signInLoop(),
      this.readLoop(),
    ];
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    for (const viewer of [...this.viewers, ...this.chatters]) viewer.stop();
  }

  /** Everyone connected and subscribed: how many are (viewers and chatters). */
  subscribedCount(): { subscribed: number; total: number } {
    const all = [...this.viewers, ...this.chatters];
    return { subscribed: all.filter((v) => v.subscribed).length, total: all.length };
  }

  private sender(base: string): TipSender {
    let sender = this.senders.get(base);
    if (!sender) {
      sender = new TipSender(base);
      this.senders.set(base, sender);
    }
    return sender;
  }

  private pick(n: number): string | null {
    const targets = this.o.targets();
    return targets.length ? targets[n % targets.length]! : null;
  }

  private async chatLoop(viewer: Viewer, i: number) {
    let n = 0;
    await sleep(i * 120);
    while (this.running) {
      const phase = this.phase;
      const text = `${phase} line ${i}-${n++}`;
      const outcome = await viewer.send(text);
      if (outcome === 'acknowledged') this.acknowledgedLines.set(text, phase);
      else if (outcome === 'unanswered') this.unansweredLines += 1;
      else this.refusedLines.set(outcome.refused, (this.refusedLines.get(outcome.refused) ?? 0) + 1);
      await sleep(2_500);
    }
  }

  /** One tip: acknowledged, refused or unknown (kept to send again with its key). */
  async sendTip(tip: PendingTip, n: number): Promise<number> {
    const base = this.pick(n);
    if (!base) return 0;
    const sender = this.sender(base);
    const res = await (sender.csrf.token ? Promise.resolve(sender) : sender.init())
      .then((s) => s.tip(tip.tipper, this.o.streamId, tip.amount, tip.key, 5_000))
      .catch(() => ({ status: 0, body: {} as Record<string, unknown> }));
    if (res.status === 403) this.senders.delete(base); // a CSRF pair this instance no longer takes: a new one next time
    this.count('tip', res.status);
    if (res.status === 200 && typeof res.body.transfer_id === 'number') {
      this.pendingTips.delete(tip.key);
      if (!this.acknowledgedTips.has(tip.key)) this.acknowledgedTips.set(tip.key, { ...tip, transferId: res.body.transfer_id });
    } else if (res.status === 402 || res.status === 429) {
      this.pendingTips.delete(tip.key);
      this.refusedTips.set(res.status, (this.refusedTips.get(res.status) ?? 0) + 1);
    } else this.pendingTips.set(tip.key, tip);
    return res.status;
  }

  private async tipLoop(c: number) {
    while (this.running) {
      const tipper = this.o.tippers[this.tipSerial % this.o.tippers.length]!;
      const serial = this.tipSerial++;
      if ((this.tipsOf.get(tipper.userId) ?? 0) >= TIPS_PER_TIPPER) {
        if (serial > this.o.tippers.length * TIPS_PER_TIPPER) return;
        continue;
      }
      this.tipsOf.set(tipper.userId, (this.tipsOf.get(tipper.userId) ?? 0) + 1);
      const status = await this.sendTip({ key: `fault-${c}-${serial}`, tipper, amount: AMOUNTS[serial % AMOUNTS.length]!, phase: this.phase }, serial);
      await sleep(status === 200 ? this.o.tipPauseMs : 250);
    }
  }

  /** Tips without an answer, sent again with their key until each has one (a few rounds). */
  async settleTips(): Promise<void> {
    for (let round = 0; round < 10 && this.pendingTips.size > 0; round++) {
      let n = 0;
      for (const tip of [...this.pendingTips.values()]) await this.sendTip(tip, n++);
      if (this.pendingTips.size > 0) await sleep(1_000);
    }
  }

  private async signInLoop() {
    const names = ['viewer1', 'viewer2', 'viewer3', 'viewer4'];
    let n = 0;
    while (this.running) {
      const base = this.pick(n);
      if (base) {
        const sender = this.sender(base);
        const res = await (sender.csrf.token ? Promise.resolve(sender) : sender.init())
          .then((s) => s.request('POST', '/api/user/user-login', '', { username: names[n % names.length], password: DEMO_PASSWORD }, {}, 10_000))
          .catch(() => ({ status: 0 }));
        this.count('sign-in', res.status);
      }
      n += 1;
      await sleep(1_000);
    }
  }

  private async readLoop() {
    let n = 0;
    while (this.running) {
      const base = this.pick(n);
      if (base) {
        const path = n % 2 ? `/api/streams/stream-lookup?id=${this.o.streamId}` : '/api/channel/base-group';
        const status = await fetch(base + path, { signal: AbortSignal.timeout(10_000) }).then((r) => r.status).catch(() => 0);
        this.count('read', status);
      }
      n += 1;
      await sleep(200);
    }
  }
}
