// Runs the embedded database (PGlite) on its own thread and serves it over a Unix socket in the
// PostgreSQL wire protocol, so the app talks to it through `pg` exactly as it talks to PostgreSQL
// and a long query never blocks the HTTP/WebSocket event loop (ARCHITECTURE "Data layer notes").
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, socketPath } = workerData;

try {
  // PGlite's own start parameters, plus a smaller buffer cache: its default (128 MB) sits in the process's
  // memory for good once touched, while the data directory's pages stay in the operating system's cache.
  const db = await PGlite.create({ dataDir, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'] });
  // The app's pool holds one client at a time, but `pg` replaces its client after any failed query:
  // the new connection can arrive before the old one has closed, so allow a few at once.
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 4 });
  await server.start();
  parentPort.on('message', async (message) => {
    if (message !== 'close') return;
    await server.stop().catch(() => {});
    await db.close().catch(() => {});
    parentPort.postMessage({ closed: true });
  });
  parentPort.postMessage({ ready: true });
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.stack ?? error.message : String(error) });
}
