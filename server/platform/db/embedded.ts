/** Starts the embedded database worker and hands back where `pg` can reach it. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface EmbeddedDatabase {
  /** Directory holding the `.s.PGSQL.5432` socket: pass it as `host` to `pg`. */
  socketDir: string;
  port: number;
  stop(): Promise<void>;
}

const SOCKET_PORT = 5432;

export async function startEmbeddedDatabase(dataDir: string): Promise<EmbeddedDatabase> {
  // Unix socket paths are limited to ~107 bytes, so the socket lives in a short temp dir.
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'll-db-'));
  const socketPath = path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`);
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir, socketPath },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: { ready?: boolean; error?: string }) => {
      if (message.ready) resolve();
      else reject(new Error(`Embedded database failed to start: ${message.error}`));
    });
  });
  return {
    socketDir,
    port: SOCKET_PORT,
    async stop() {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 10_000);
        worker.once('message', () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage('close');
      });
      await worker.terminate();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
