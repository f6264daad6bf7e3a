/**
 * Message-to-many delivery run in a process of its own, for the kill -9 test: delivers until nothing is
 * left to send, then exits. Usage: broadcast-worker.ts <database url> <batch size>.
 */
import { broadcastRunner } from './broadcast-load';

const [url, batchSize] = process.argv.slice(2);
if (!url || !batchSize) throw new Error('usage: broadcast-worker.ts <database url> <batch size>');
const runner = await broadcastRunner(url, { batchSize: Number(batchSize) });
const written = await runner.deliverAll();
await runner.close();
process.stdout.write(`${JSON.stringify({ written })}\n`);
