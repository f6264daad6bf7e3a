/** pgbench TPC-B on a fresh database of the same PostgreSQL server: the reference run the money benchmarks report a ratio against. */
import { spawnSync } from 'node:child_process';
import { emptyPostgresDatabase } from '../server/testing/tip-load';

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

function pgbench(args: string[], url: URL): string {
  const env = { ...process.env, PGHOST: url.searchParams.get('host') ?? url.hostname, PGPORT: url.port || '5432', PGUSER: decodeURIComponent(url.username || 'postgres'), PGPASSWORD: decodeURIComponent(url.password) };
  const result = spawnSync('pgbench', args, { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pgbench ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout + result.stderr;
}

/** Initialises (scale) and runs TPC-B with `clients` connections for `seconds`; answers its TPS and latency. */
/** `selectOnly`: pgbench's built-in select-only script (-S), a read reference for read paths. */
export async function runPgbench({ clients, scale, seconds, selectOnly = false }: { clients: number; scale: number; seconds: number; selectOnly?: boolean }) {
  const db = await emptyPostgresDatabase('ll_bench_pgbench');
  try {
    const url = new URL(db.url);
    const t0 = Date.now();
    pgbench(['-i', '-q', '-s', String(scale), db.name], url);
    const initSeconds = (Date.now() - t0) / 1000;
    const out = pgbench(['-c', String(clients), '-j', '2', '-T', String(seconds), '-n', ...(selectOnly ? ['-S'] : []), db.name], url);
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1] ?? /tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
    const latency = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? 0);
    return { tps: Math.round(tps), latencyAverageMs: latency, clients, scale, seconds, initSeconds: round(initSeconds, 1), script: selectOnly ? 'select-only' : 'tpcb-like' };
  } finally {
    await db.drop();
  }
}
