/**
 * Page weight: the gzip'd JavaScript a first visit to each main page fetches (scripts/page-weight.ts,
 * whose budgets `npm test` checks), beside a reference build's when one is given.
 * Run after `npm run build:web`: `npx tsx bench/page-weight.ts [--reference <dist dir built with --manifest>]`.
 * Sizes, so no load average matters. Measured 2026-11-27 against the build before route splitting
 * (decision 0029): see the decision record's table.
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
