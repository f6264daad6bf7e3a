/**
 * For bench/meetings.ts with MEETINGS_TRACE=1: records, in each page, the room's realtime frames
 * (SIGNAL out and in, their acks and errors, PARTICIPANTS) and every RTCPeerConnection's state changes,
 * with wall-clock times, so a slow join can be read as one timeline across the host's and the invitee's pages.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { allowNamedFunctions } from './browser-run';

export interface TraceEvent {
  at: number;
  what: string;
}

/** Installs the recorder in every page the context opens from now on. */
export async function traceSignals(context: BrowserContext): Promise<void> {
  await allowNamedFunctions(context);
  await context.addInitScript(() => {
    const events: { at: number; what: string }[] = [];
    (window as unknown as { __signalTrace: typeof events }).__signalTrace = events;
    const note = (what: string) => events.push({ at: Date.now(), what });
    const describeSignal = (signal: { description?: { type: string }; candidate?: { candidate: string } | null }) =>
      signal.description ? signal.description.type : signal.candidate ? `candidate ${signal.candidate.candidate.split(' ').slice(4, 8).join(' ')}` : 'end-of-candidates';
    const sendIds = new Map<string, string>();

    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      if (typeof data === 'string') {
        const frame = JSON.parse(data) as { op: string; id?: string; type?: string; to?: number; channel?: string; signal?: Parameters<typeof describeSignal>[0] };
        if (frame.type === 'SIGNAL' && frame.signal) {
          const what = `→ ${frame.to}: ${describeSignal(frame.signal)}`;
          sendIds.set(frame.id ?? '', what);
          note(what);
        } else if (frame.op === 'subscribe') note(`subscribe ${frame.channel}`);
      }
      return send.call(this, data);
    };
    const NativeWebSocket = window.WebSocket;
    window.WebSocket = class extends NativeWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        note('socket opening');
        this.addEventListener('open', () => note('socket open'));
        this.addEventListener('message', (event: MessageEvent<string>) => {
          const frame = JSON.parse(event.data) as { op: string; id?: string; code?: string; channel?: string; message?: { type: string; data: Record<string, unknown> } };
          const message = frame.message;
          if (frame.op === 'error' && frame.id && sendIds.has(frame.id)) note(`REFUSED (${frame.code}) ${sendIds.get(frame.id)}`);
          else if (frame.op === 'subscribed') note(`subscribed ${frame.channel}`);
          else if (message?.type === 'SIGNAL') note(`← ${String(message.data.from)}: ${describeSignal(message.data.signal as Parameters<typeof describeSignal>[0])}`);
          else if (message?.type === 'PARTICIPANTS') {
            note(`PARTICIPANTS ${(message.data.participants as { user_id: number }[]).map((p) => p.user_id).join(',')}`);
          }
        });
      }
    };

    let serial = 0;
    const names = new WeakMap<RTCPeerConnection, string>();
    const NativePeerConnection = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends NativePeerConnection {
      constructor(config?: RTCConfiguration) {
        super(config);
        const name = `pc${(serial += 1)}`;
        note(`${name} created`);
        this.addEventListener('signalingstatechange', () => note(`${name} signaling ${this.signalingState}`));
        this.addEventListener('icegatheringstatechange', () => note(`${name} gathering ${this.iceGatheringState}`));
        this.addEventListener('iceconnectionstatechange', () => note(`${name} ice ${this.iceConnectionState}`));
        this.addEventListener('connectionstatechange', () => note(`${name} connection ${this.connectionState}`));
        this.addEventListener('icecandidate', (event) => note(`${name} gathered ${event.candidate ? event.candidate.candidate.split(' ').slice(4, 8).join(' ') : 'all'}`));
        names.set(this, name);
      }

      override async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
        try {
          await super.setRemoteDescription(description);
          note(`${names.get(this)} setRemote ${description.type} ok`);
        } catch (error) {
          note(`${names.get(this)} setRemote ${description.type} FAILED ${String(error)}`);
          throw error;
        }
      }

      override async addIceCandidate(candidate?: RTCIceCandidateInit | null): Promise<void> {
        try {
          await super.addIceCandidate(candidate ?? undefined);
          note(`${names.get(this)} addIce ok`);
        } catch (error) {
          note(`${names.get(this)} addIce FAILED ${String(error).slice(0, 80)}`);
          throw error;
        }
      }
    };
  });
}

/** The page's events at or after `since` (ms since the epoch); none when the page has no recorder. */
export async function traceOf(page: Page, since: number): Promise<TraceEvent[]> {
  const events = await page.evaluate(() => (window as unknown as { __signalTrace?: TraceEvent[] }).__signalTrace ?? []).catch(() => []);
  return events.filter((e) => e.at >= since);
}

/** The pages' events merged into one timeline, in ms from `since`, each line naming its page. */
export function timeline(since: number, pages: Record<string, TraceEvent[]>): string {
  return Object.entries(pages)
    .flatMap(([who, events]) => events.map((e) => ({ ...e, who })))
    .sort((a, b) => a.at - b.at)
    .map((e) => `  +${String(e.at - since).padStart(5)} ms ${e.who.padEnd(8)} ${e.what}`)
    .join('\n');
}
