import { describe, expect, it } from 'vitest';
import { filesFor, overBudget, pageWeights, weightTable, type Manifest, type PageBudget } from './page-weight';

// index.html → index.js → react.js, vendor.js; the stream page → its chunk → shared.js (→ react.js again), and the player.
const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js', '_vendor.js'], dynamicImports: ['features/Stream.tsx'] },
  '_react.js': { file: 'assets/react.js' },
  '_vendor.js': { file: 'assets/vendor.js', imports: ['_react.js'] },
  '_shared.js': { file: 'assets/shared.js', imports: ['_react.js', '_style.css'] },
  '_style.css': { file: 'assets/style.css' },
  'features/Stream.tsx': { file: 'assets/Stream.js', isDynamicEntry: true, imports: ['_shared.js'], dynamicImports: ['features/Player.tsx'] },
  'features/Player.tsx': { file: 'assets/Player.js', isDynamicEntry: true, imports: ['_shared.js'] },
};
const sizes: Record<string, number> = {
  'assets/index.js': 10 * 1024,
  'assets/react.js': 60 * 1024,
  'assets/vendor.js': 30 * 1024,
  'assets/shared.js': 20 * 1024,
  'assets/Stream.js': 15 * 1024,
  'assets/Player.js': 100 * 1024,
};
const sizeOf = (file: string) => sizes[file]!;

const budgets: PageBudget[] = [
  { page: 'home', path: '/', lazy: [], budgetKb: 100 },
  { page: 'stream', path: '/stream', lazy: ['features/Stream.tsx', 'features/Player.tsx'], budgetKb: 230, goalKb: 200 },
];

describe('page weight', () => {
  it('counts the entry with its static imports, then each lazy chunk with its own, every file once and no stylesheet', () => {
    expect(filesFor(manifest, ['index.html'])).toEqual(['assets/index.js', 'assets/react.js', 'assets/vendor.js']);
    expect(filesFor(manifest, ['index.html', 'features/Stream.tsx', 'features/Player.tsx'])).toEqual([
      'assets/index.js',
      'assets/react.js',
      'assets/vendor.js',
      'assets/Stream.js',
      'assets/shared.js',
      'assets/Player.js',
    ]);
  });

  it('does not count chunks only loaded on demand', () => {
    const [home] = pageWeights(manifest, sizeOf, budgets);
    expect(home!.bytes).toBe(100 * 1024);
  });

  it('names every page over its budget with its size and budget', () => {
    const weights = pageWeights(manifest, sizeOf, budgets);
    expect(weights.map((w) => w.bytes / 1024)).toEqual([100, 235]);
    expect(overBudget(weights)).toEqual(["Page stream (/stream) loads 235.0 KB of gzip'd JavaScript, over its budget of 230 KB."]);
    expect(weightTable(weights)).toMatch(/stream\s+6\s+235\.0\s+230\s+200\s+OVER/);
  });

  it('fails on a page whose chunk is not in the build', () => {
    expect(() => pageWeights(manifest, sizeOf, [{ page: 'gone', path: '/gone', lazy: ['features/Gone.tsx'], budgetKb: 1 }])).toThrow(/no chunk features\/Gone\.tsx/);
  });

  it('shows a reference build side by side with the ratio', () => {
    const weights = pageWeights(manifest, sizeOf, budgets);
    const before = weights.map((w) => ({ ...w, bytes: w.bytes * 2 }));
    expect(weightTable(weights, before)).toMatch(/home\s+3\s+200\.0\s+100\.0\s+0\.50\s+100\s+ok/);
  });
});
