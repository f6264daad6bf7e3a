/**
 * Page weight: the gzip'd JavaScript a first visit to each main page fetches (scripts/page-weight.ts,
 * whose budgets `npm test` checks), beside a reference build's when one is given.
 * Run after `npm run build:web`: `npx tsx bench/page-weight.ts [--reference <dist dir built with --manifest>]`.
 * Sizes, so no load average matters. Measured 2026-11-27 against the build before route splitting
 * (decision 0029): see the decision record's table.
 *
 * 2026-11-27, after decision 0032 (pages without zod, dialogs loaded when they open), gzip'd KB:
 *   home 140.1 (was 172.6, budget 150), stream with the player 291.7 (375.6, budget 300),
 *   post 326.8 (390.0), dashboard 327.1 (371.7), channel 148.3 (188.6), profile 157.1 (246.5),
 *   login 181.1 (183.8), sign-up 178.2 (181.5), wallet 171.8 (180.0), upload 208.2 (226.6),
 *   meetings 220.4 (264.2), meeting room 204.5 (259.0), analytics 174.6 (182.9), console 154.3 (249.3).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { kb, measureBuild, overBudget, weightTable } from '../scripts/page-weight';
import { round, writeResult } from './lib';

const { values } = parseArgs({ options: { dist: { type: 'string', default: 'dist/web' }, reference: { type: 'string' } } });

const weights = measureBuild(path.resolve(values.dist));
const reference = values.reference ? measureBuild(path.resolve(values.reference)) : undefined;
console.log(weightTable(weights, reference));
for (const line of overBudget(weights)) console.log(line);

writeResult('page-weight', {
  pages: weights.map((w) => {
    const before = reference?.find((r) => r.page === w.page);
    return {
      page: w.page,
      path: w.path,
      files: w.files.length,
      gzipKb: round(kb(w.bytes), 1),
      budgetKb: w.budgetKb,
      ...(before ? { referenceKb: round(kb(before.bytes), 1), ratio: round(w.bytes / before.bytes, 2) } : {}),
    };
  }),
});
