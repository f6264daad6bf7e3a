/**
 * The web build's last step (a Vite plugin in web/vite.config.ts): writes `<file>.br` and `<file>.gz`
 * beside every compressible file of the built app, which the server sends to browsers that accept
 * them (@fastify/static `preCompressed`), and reports what a first visit fetches before it paints:
 * index.html and the scripts and stylesheets it names, raw, gzip and brotli.
 * By hand: `npx tsx scripts/precompress-web.ts [dist dir, default dist/web]`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|md|txt|webmanifest|wasm|tflite)$/;
/** Below this, a compressed answer saves less than its headers cost. */
const MIN_BYTES = 1024;

export interface CompressedSize {
  raw: number;
  gzip: number;
  br: number;
}

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

/** Above this (the segmentation wasm, 5.6 MB), brotli's best quality takes a minute a file for 10 % fewer bytes than quality 9. */
const LARGE_BYTES = 1024 * 1024;

/** The gzip copy written beside a file (and what the page weight budget counts). */
export const gzip = (data: Buffer) => gzipSync(data, { level: 9 });

const brotli = (data: Buffer) =>
  brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: data.length > LARGE_BYTES ? 9 : 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });

/** Writes the variants that save bytes (the server sends the plain file where none exists); answers every file's sizes. */
export function precompress(dist: string): Map<string, CompressedSize> {
  const sizes = new Map<string, CompressedSize>();
  for (const file of filesUnder(dist)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const data = readFileSync(file);
    const gz = gzip(data);
    const br = brotli(data);
    sizes.set(path.relative(dist, file), { raw: data.length, gzip: gz.length, br: br.length });
    if (data.length < MIN_BYTES) continue;
    if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
    if (br.length < data.length) writeFileSync(`${file}.br`, br);
  }
  return sizes;
}

/** index.html and the scripts, module preloads and stylesheets it names. */
export function firstLoadFiles(dist: string): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  return ['index.html', ...[...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!)];
}

export function firstLoadReport(dist: string, sizes: Map<string, CompressedSize>): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
  const rows = firstLoadFiles(dist).map((file) => [file, sizes.get(file) ?? { raw: 0, gzip: 0, br: 0 }] as const);
  const total = rows.reduce((sum, [, s]) => ({ raw: sum.raw + s.raw, gzip: sum.gzip + s.gzip, br: sum.br + s.br }), { raw: 0, gzip: 0, br: 0 });
  const line = (name: string, s: CompressedSize) => `  ${name.padEnd(34)}${kb(s.raw)}${kb(s.gzip)}${kb(s.br)}`;
  return [`First load: ${rows.length} files${' '.repeat(18)}raw      gzip    brotli`, ...rows.map(([f, s]) => line(f, s)), line('total', total)].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dist = path.resolve(process.argv[2] ?? 'dist/web');
  console.log(firstLoadReport(dist, precompress(dist)));
}
