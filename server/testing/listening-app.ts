/**
 * A test file's app listening on a free port, for suites that speak WebSocket as well as HTTP: sockets
 * opened through `socketOf` are closed when the file ends (or by `closeSockets`), then the app.
 */
import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type SignedInUser, type TestApp } from './harness';
import type { HttpSession } from './http-session';
import { closeCheckingLedger } from './ledger-invariants';
import { streamChannelOf } from '../../common/realtime-channels';
import { WsClient, type Frame } from './ws-client';

export interface ListeningTestApp {
  readonly t: TestApp;
  readonly baseUrl: string;
  /** A realtime socket signed in as `who`, or a guest's without. */
  socketOf(who?: SignedInUser | HttpSession): Promise<WsClient>;
  /** A chat line on the stream's public channel from a socket of `who`: its answer, `ack` or the refusal's `error`. */
  say(who: SignedInUser | HttpSession, streamId: number, text: string): Promise<Frame>;
  closeSockets(): void;
}

/** `close` ends the app (by default checking the ledger's invariants first); `env` is read when the app starts. */
export function useListeningTestApp(close: (t: TestApp) => Promise<void> = closeCheckingLedger, env: () => Record<string, string> = () => ({})): ListeningTestApp {
  let t: TestApp | undefined;
  let baseUrl = '';
  const sockets: WsClient[] = [];
  let lines = 0;
  const closeSockets = () => {
    for (const socket of sockets.splice(0)) socket.close();
  };
  const socketOf = async (who?: SignedInUser | HttpSession) => {
    const session = who && 'client' in who ? who.client : who;
    const socket = await WsClient.connect(baseUrl, session?.cookie('ll_session'));
    sockets.push(socket);
    return socket;
  };
  beforeAll(async () => {
    t = await startTestApp(env());
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    closeSockets();
    if (t) await close(t);
  });
  return {
    get t() {
      if (!t) throw new Error('the test app starts in beforeAll');
      return t;
    },
    get baseUrl() {
      return baseUrl;
    },
    socketOf,
    async say(who, streamId, text) {
      const socket = await socketOf(who);
      const channel = streamChannelOf(streamId);
      await socket.request({ op: 'subscribe', channel });
      return socket.request({ op: 'send', channel, id: `line-${(lines += 1)}`, type: 'COMMENT', text });
    },
    closeSockets,
  };
}
