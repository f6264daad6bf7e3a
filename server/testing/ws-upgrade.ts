/** Opens a WebSocket and answers either the open socket or the upgrade's HTTP refusal (its status and failure envelope). */
import WebSocket from 'ws';

export type UpgradeAnswer = { socket: WebSocket } | { status: number; body: { response: string; message: string } };

export function openUpgrade(url: string, o: { cookie?: string; origin?: string } = {}): Promise<UpgradeAnswer> {
  const socket = new WebSocket(url, { headers: { ...(o.cookie ? { cookie: `ll_session=${o.cookie}` } : {}), ...(o.origin ? { origin: o.origin } : {}) } });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_request, response) => {
      let raw = '';
      response.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(raw) as { response: string; message: string } }));
    });
    socket.once('error', reject);
  });
}
