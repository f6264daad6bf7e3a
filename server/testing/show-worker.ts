/**
 * A show billing job run in a process of its own, for the kill -9 test: bills every due seat until none
 * is, then exits. Usage: show-worker.ts <database url> <minute ms>.
 */
import { showBillingRunner } from './show-load';

const [url, minuteMs] = process.argv.slice(2);
if (!url || !minuteMs) throw new Error('usage: show-worker.ts <database url> <minute ms>');
const runner = await showBillingRunner(url, { minuteMs: Number(minuteMs), poolSize: 2 });
const outcome = await runner.billDue();
await runner.close();
process.stdout.write(`${JSON.stringify(outcome)}\n`);
