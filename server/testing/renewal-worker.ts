/**
 * A renewal job run in a process of its own, for the kill -9 test: renews what is due at the given
 * time in small batches until nothing is, then exits. Usage: renewal-worker.ts <database url> <iso time> <batch>.
 */
import { renewalRunner } from './renewal-load';

const [url, at, batch] = process.argv.slice(2);
if (!url || !at) throw new Error('usage: renewal-worker.ts <database url> <iso time> [batch]');
const runner = await renewalRunner(url, 2);
const outcome = await runner.renewDue(new Date(at), Number(batch ?? 10));
await runner.close();
process.stdout.write(`${JSON.stringify(outcome)}\n`);
