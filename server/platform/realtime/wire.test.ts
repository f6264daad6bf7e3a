import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { frameWriter, prepareFrame } from './wire';

const servers: WebSocketServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server socket and a client reading it, over loopback, with permessage-deflate offered on both sides or neither. */
async function pair(deflate: boolean) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: deflate });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const accepted = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { perMessageDeflate: deflate });
  const received: string[] = [];
  client.on('message', (data: Buffer, isBinary) => received.push(`${isBinary ? 'binary' : 'text'}:${data.toString()}`));
  const socket = await accepted;
  await new Promise((resolve) => client.once('open', resolve));
  return { socket, client, received };
}

/** Texts of every length class of the frame header: 7-bit, 16-bit and 64-bit lengths, at their edges. */
const texts = ['{"text":"é ✓"}', ...[0, 1, 125, 126, 65_535, 65_536, 70_000].map((n) => 'x'.repeat(n))];

describe('prepared frames', () => {
  it.each([false, true])('reach a ws client whole and in order with what ws.send sends (permessage-deflate %s)', async (deflate) => {
    const { socket, client, received } = await pair(deflate);
    const write = frameWriter(socket);
    const expected: string[] = [];
    for (const text of texts) {
      write(prepareFrame(Buffer.from(text)));
      socket.send(`sent after ${text.length}`);
      expected.push(`text:${text}`, `text:sent after ${text.length}`);
    }
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (received.length < expected.length) return;
        clearInterval(check);
        resolve();
      }, 5);
      client.once('close', () => reject(new Error('the client closed: a frame did not parse')));
    });
    expect(received).toEqual(expected);
    client.close();
  });

  it('frames the text once: header and payload in one buffer', () => {
    const frame = prepareFrame(Buffer.from('{"op":"pong"}'));
    expect([...frame.wire.subarray(0, 2)]).toEqual([0x81, 13]);
    expect(frame.wire.subarray(2).toString()).toBe('{"op":"pong"}');
    const long = prepareFrame(Buffer.alloc(70_000, 0x20));
    expect([...long.wire.subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]);
    expect(long.wire.length).toBe(70_010);
  });
});
