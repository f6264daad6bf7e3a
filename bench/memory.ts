/**
 * The embedded server's resident memory (`npm start`'s setup: PGlite in the process, in-process bus):
 * after its first start on a fresh data directory (migrations and demo data), idle after a restart on
 * that directory, and with MEMORY_SOCKETS (5,000) WebSockets subscribed to a live stream's channel from
 * separate client processes. Beside it, the database's own share: the same data directory opened by
 * PGlite alone, with the server's settings, in a bare Node process; and the V8 heap the server reports.
 *
 * Env: MEMORY_SOCKETS (5000).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import type { ConnectReply } from './chat-fanout-client';
import { rssBytes } from './chat-fanout-load';
import { openChannel, Worker } from './chat-fanout-setup';
import { sleep, writeResult } from './lib';

const SOCKETS = Number(process.env.MEMORY_SOCKETS ?? 5000);
const WORKERS = 2;
const SETTLE_MS = 5000;
const mb = (bytes: number) => Math.round(bytes / 1_048_576);

/** The V8 heap and external memory the server reports on /metrics. */
async function heapOf(server: ServerProcess): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    heapUsedMb: mb(metric('nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(metric('nodejs_heap_size_total_bytes')),
    externalMb: mb(metric('nodejs_external_memory_bytes')),
  };
}

async function settledRss(server: ServerProcess) {
  await sleep(SETTLE_MS);
  return { rssMb: mb(rssBytes(server.child.pid!)), ...(await heapOf(server)) };
}

/** PGlite alone on the data directory, as the server's worker opens it: the database's share. */
function databaseAloneMb(dataDir: string): Promise<number> {
  const script = `
    import { PGlite } from '@electric-sql/pglite';
    import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
    const db = await PGlite.create({ dataDir: ${JSON.stringify(path.join(dataDir, 'db'))}, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'] });
    for (const table of ['users', 'streams', 'ledger_entries', 'chat_messages']) await db.query('select count(*) from ' + table).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 1000));
    console.log(process.memoryUsage().rss);
    await db.close();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(mb(Number(out.trim()))) : reject(new Error(`PGlite alone exited ${code}`))));
  });
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-memory-'));
  const workers: Worker[] = [];
  let server: ServerProcess | null = null;
  try {
    server = await startServerProcess({ SEED_DEMO: 'on', LOG_LEVEL: 'warn' }, { dataDir });
    const firstStart = await settledRss(server);
    await server.stop();

    server = await startServerProcess({ SEED_DEMO: 'on', LOG_LEVEL: 'warn' }, { dataDir });
    const idle = await settledRss(server);

    const { channel, rtmp } = await openChannel('memory', server.url);
    for (let i = 0; i < WORKERS; i += 1) workers.push(new Worker());
    const url = `${server.url.replace(/^http/, 'ws')}/ws`;
    const replies = await Promise.all(workers.map((worker, i) =>
      worker.ask<ConnectReply>({ cmd: 'connect', urls: [url], count: SOCKETS / WORKERS, offset: i * (SOCKETS / WORKERS), channel, batch: 250 })));
    const connected = replies.reduce((n, r) => n + r.connected, 0);
    const withSockets = await settledRss(server);
    for (const worker of workers) await worker.ask({ cmd: 'close' }).catch(() => undefined);
    await rtmp?.stop();
    await server.stop();
    server = null;

    const databaseAlone = await databaseAloneMb(dataDir);
    const result = {
      config: { sockets: SOCKETS, connected },
      firstStart,
      idle,
      withSockets,
      perSocketKb: Math.round(((withSockets.rssMb - idle.rssMb) * 1024) / Math.max(1, connected)),
      databaseAloneMb: databaseAlone,
      idleOutsideTheDatabaseMb: idle.rssMb - databaseAlone,
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
    };
    console.table({
      'first start (migrations, demo data)': firstStart,
      'idle after a restart': idle,
      [`${connected} sockets on a stream channel`]: withSockets,
      'PGlite alone on the same data': { rssMb: databaseAlone },
    });
    writeResult('memory', result);
  } finally {
    for (const worker of workers) worker.child.kill();
    if (server) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
