/**
 * The page's one realtime connection (docs/architecture.md §7): a WebSocket to /ws that subscribes to
 * channels, sends COMMENT / LIKE requests answered by ack or error, keeps itself alive with an
 * app-level ping and reconnects with backoff (at once, jittered, when the server says it is restarting),
 * subscribing again to everything it had and asking for the lines it missed (decision 0042).
 */
import { currentSkin } from './client';
import type { ClientFrame, RealtimeMessage, ReplayCursor, SendRequest } from '../../common/realtime';
import { SERVER_RESTARTING } from '../../common/realtime-channels';
import {
  ACK_TIMEOUT_MS, advanceCursor, backoffDelay, EMPTY_CURSOR, GOOD_CONNECTION_MS, IDLE_CLOSE_MS, OFFLINE_MESSAGE, parseServerFrame, PING_INTERVAL_MS,
  PONG_TIMEOUT_MS, RealtimeError, restartDelay, RETRIED_SUBSCRIBE_CODES, routeFrame, TIMEOUT_MESSAGE, type ChannelListener, type ConnectionStatus,
} from './realtime-frames';

export * from './realtime-frames';

/** The part of a WebSocket the client uses, so tests can hand it a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

const OPEN = 1;

export interface RealtimeClientOptions {
  url: string | (() => string);
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
}

interface PendingSend {
  resolve: () => void;
  reject: (error: RealtimeError) => void;
  timer: ReturnType<typeof setTimeout>;
}

let idPrefix = Math.random().toString(36).slice(2, 10);

export class RealtimeClient {
  private readonly options: Required<Omit<RealtimeClientOptions, 'url'>> & { url: () => string };
  private socket: SocketLike | null = null;
  private statusValue: ConnectionStatus = 'idle';
  private readonly statusListeners = new Set<(status: ConnectionStatus) => void>();
  private readonly channels = new Map<string, Set<ChannelListener>>();
  private readonly pending = new Map<string, PendingSend>();
  /** Per channel, the last chat line and tip this page saw: a resubscription asks for what came after. */
  private readonly cursors = new Map<string, ReplayCursor>();
  private attempt = 0;
  private nextId = 1;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Subscriptions the server could not answer, asked again after a backoff: the attempt and its timer, per channel. */
  private readonly resubscribing = new Map<string, { attempt: number; timer: ReturnType<typeof setTimeout> | null }>();
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private goodTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(options: RealtimeClientOptions) {
    const { url } = options;
    this.options = {
      url: typeof url === 'string' ? () => url : url,
      createSocket: options.createSocket ?? ((u) => new WebSocket(u) as unknown as SocketLike),
      random: options.random ?? Math.random,
    };
  }

  get status(): ConnectionStatus {
    return this.statusValue;
  }

  /** Calls `listener` on every status change; returns the way to stop. */
  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Listens to a channel (subscribing on the server when it is the first listener); returns the unsubscribe. */
  subscribe(channel: string, listener: ChannelListener | ((message: RealtimeMessage) => void)): () => void {
    const entry: ChannelListener = typeof listener === 'function' ? { onMessage: listener } : listener;
    let listeners = this.channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
    }
    listeners.add(entry);
    this.cancelIdleClose();
    // An open socket subscribes now (a later listener of a channel gets the history again this way);
    // a connecting one subscribes to every channel when it opens.
    if (!this.socket) this.connect();
    else if (this.isOpen()) this.write({ op: 'subscribe', channel });
    return () => this.unsubscribe(channel, entry);
  }

  /** Asks the server to publish a COMMENT or LIKE; resolves on its ack, rejects with its error. */
  send(channel: string, request: SendRequest): Promise<void> {
    if (!this.isOpen()) return Promise.reject(new RealtimeError('offline', OFFLINE_MESSAGE, channel));
    const id = `${idPrefix}-${this.nextId++}`;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RealtimeError('timeout', TIMEOUT_MESSAGE, channel));
      }, ACK_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.write({ op: 'send', channel, id, ...request });
    });
  }

  /** Drops the connection and opens a new one now (after login or logout: the session cookie changed). */
  reconnect(): void {
    if (this.channels.size === 0) return;
    this.teardown();
    this.attempt = 0;
    this.connect();
  }

  /** Closes everything; the client may be used again by subscribing. */
  close(): void {
    this.channels.clear();
    this.cursors.clear();
    this.teardown();
    this.setStatus('idle');
  }

  private isOpen(): boolean {
    return this.socket !== null && this.socket.readyState === OPEN && this.statusValue === 'open';
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.statusValue) return;
    this.statusValue = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }

  private write(frame: ClientFrame): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(frame));
  }

  private connect(): void {
    this.clearReconnect();
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.setStatus('open');
      this.clearResubscribe();
      for (const channel of this.channels.keys()) {
        const after = this.cursors.get(channel);
        this.write({ op: 'subscribe', channel, ...(after ? { after } : {}) });
      }
      this.startHeartbeat();
      this.goodTimer = setTimeout(() => {
        this.attempt = 0;
      }, GOOD_CONNECTION_MS);
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.receive(event.data);
    };
    socket.onerror = () => {
      // A close event follows; reconnecting happens there.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopTimers();
      this.failPending();
      if (this.channels.size === 0) this.setStatus('idle');
      else if ((event as { code?: unknown } | null)?.code === SERVER_RESTARTING.code) this.reconnectSoon();
      else this.scheduleReconnect();
    };
  }

  private receive(raw: unknown): void {
    this.clearPongTimer();
    const frame = parseServerFrame(raw);
    if (!frame) return;
    const route = routeFrame(frame);
    if (route.to === 'heartbeat') {
      if (route.reply) this.write({ op: 'pong' });
      return;
    }
    if (route.to === 'send') {
      const waiting = this.pending.get(route.id);
      if (!waiting) return;
      this.pending.delete(route.id);
      clearTimeout(waiting.timer);
      if (frame.op === 'error') waiting.reject(new RealtimeError(frame.code, frame.message, frame.channel));
      else waiting.resolve();
      return;
    }
    if (route.to !== 'channel') return;
    if (frame.op === 'error' && RETRIED_SUBSCRIBE_CODES.has(frame.code)) return this.resubscribeLater(route.channel);
    if (frame.op === 'subscribed') this.clearResubscribe(route.channel);
    this.moveCursor(route.channel, frame.op === 'messages' ? frame.messages : frame.op === 'message' ? [frame.message] : frame.op === 'subscribed' ? frame.history : []);
    // A batch is its messages one after another, each handed over as if it had come in a frame of its own.
    if (frame.op === 'messages') {
      for (const message of frame.messages) this.toListeners(route.channel, (listener) => listener.onMessage(message));
      return;
    }
    this.toListeners(route.channel, (listener) => {
      if (frame.op === 'message') listener.onMessage(frame.message);
      else if (frame.op === 'subscribed') listener.onSubscribed?.(frame.history, frame.replay);
      else if (frame.op === 'error') listener.onError?.(new RealtimeError(frame.code, frame.message, route.channel));
    });
  }

  /** A subscription the server could not answer now: asked again after the backoff, the listeners told nothing. */
  private resubscribeLater(channel: string): void {
    if (!this.channels.has(channel)) return;
    const state = this.resubscribing.get(channel) ?? { attempt: 0, timer: null };
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = setTimeout(() => {
      state.timer = null;
      if (!this.channels.has(channel) || !this.isOpen()) return;
      const after = this.cursors.get(channel);
      this.write({ op: 'subscribe', channel, ...(after ? { after } : {}) });
    }, backoffDelay(state.attempt, this.options.random));
    state.attempt += 1;
    this.resubscribing.set(channel, state);
  }

  private clearResubscribe(channel?: string): void {
    for (const [name, state] of this.resubscribing) {
      if (channel !== undefined && name !== channel) continue;
      if (state.timer !== null) clearTimeout(state.timer);
      this.resubscribing.delete(name);
    }
  }

  /** Remembers where the page's copy of a channel ends (from its first history on). */
  private moveCursor(channel: string, messages: readonly RealtimeMessage[]): void {
    if (!this.channels.has(channel)) return;
    this.cursors.set(channel, advanceCursor(this.cursors.get(channel) ?? EMPTY_CURSOR, messages));
  }

  /** Calls each listener the channel has now (one that unsubscribes meanwhile still hears this one). */
  private toListeners(channel: string, call: (listener: ChannelListener) => void): void {
    const listeners = this.channels.get(channel);
    if (!listeners) return;
    for (const listener of [...listeners]) call(listener);
  }

  private unsubscribe(channel: string, entry: ChannelListener): void {
    const listeners = this.channels.get(channel);
    if (!listeners?.delete(entry) || listeners.size > 0) return;
    this.channels.delete(channel);
    this.cursors.delete(channel);
    this.clearResubscribe(channel);
    this.write({ op: 'unsubscribe', channel });
    if (this.channels.size === 0) this.scheduleIdleClose();
  }

  private scheduleReconnect(): void {
    const delay = backoffDelay(this.attempt, this.options.random);
    this.attempt += 1;
    this.reconnectAfter(delay);
  }

  /** The server is restarting: come back at once, at a random moment of a short window, with the backoff reset. */
  private reconnectSoon(): void {
    this.attempt = 0;
    this.reconnectAfter(restartDelay(this.options.random));
  }

  private reconnectAfter(delay: number): void {
    this.setStatus('reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  /** The browser says the network is back: try now rather than at the end of a long backoff. */
  retryNow(): void {
    if (this.reconnectTimer === null) return;
    this.clearReconnect();
    this.connect();
  }

  private startHeartbeat(): void {
    this.pingTimer = setInterval(() => {
      this.write({ op: 'ping' });
      this.clearPongTimer();
      this.pongTimer = setTimeout(() => this.abandon('heartbeat timeout'), PONG_TIMEOUT_MS);
    }, PING_INTERVAL_MS);
  }

  /**
   * The browser says the network is gone: give up the socket now (and show it) instead of waiting for
   * a heartbeat to go unanswered; 'online' then retries at once.
   */
  networkLost(): void {
    if (this.socket) this.abandon('offline');
  }

  /** Closes a connection that cannot be trusted any more, without waiting for its close handshake, and reconnects. */
  private abandon(reason: string): void {
    const socket = this.socket;
    this.socket = null;
    this.stopTimers();
    this.failPending();
    socket?.close(4000, reason);
    if (this.channels.size > 0) this.scheduleReconnect();
    else this.setStatus('idle');
  }

  private clearPongTimer(): void {
    if (this.pongTimer !== null) clearTimeout(this.pongTimer);
    this.pongTimer = null;
  }

  private stopTimers(): void {
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    if (this.goodTimer !== null) clearTimeout(this.goodTimer);
    this.pingTimer = null;
    this.goodTimer = null;
    this.clearPongTimer();
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private scheduleIdleClose(): void {
    this.cancelIdleClose();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.channels.size === 0) this.close();
    }, IDLE_CLOSE_MS);
  }

  private cancelIdleClose(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private failPending(): void {
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new RealtimeError('offline', OFFLINE_MESSAGE));
      this.pending.delete(id);
    }
  }

  private teardown(): void {
    this.clearReconnect();
    this.clearResubscribe();
    this.cancelIdleClose();
    this.stopTimers();
    this.failPending();
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'closing');
  }
}

/** ws(s)://<this host>/ws?service=<skin>: a browser cannot send the skin header on a WebSocket. */
export function realtimeUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/ws?service=${encodeURIComponent(currentSkin())}`;
}

let shared: RealtimeClient | null = null;

/** The page's one realtime client, created on first use. */
export function realtimeClient(): RealtimeClient {
  if (!shared) {
    const client = new RealtimeClient({ url: realtimeUrl });
    window.addEventListener('online', () => client.retryNow());
    window.addEventListener('offline', () => client.networkLost());
    shared = client;
  }
  return shared;
}

/** For tests: ids stay unique per page, this makes them predictable. */
export function resetIdPrefixForTests(prefix: string): void {
  idPrefix = prefix;
}
