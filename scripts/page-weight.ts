/**
 * Page weight: the gzip'd JavaScript a first visit to each main page fetches, from the web build's
 * manifest (dist/web/.vite/manifest.json), against the page's budget (decision 0029). A page fetches
 * the entry (index.html's script) and its static imports, then the page's lazy chunks — the route's
 * own and those it loads as it renders, such as the video player — each with its static imports.
 * `npx tsx scripts/page-weight.ts [dist dir]` prints the table and fails naming every page over budget
 * (a stage of `npm test` after the web build); bench/page-weight.ts writes it to bench/results/.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzip } from './precompress-web';

/** One chunk of Vite's build manifest, keyed by its source path relative to web/ (`index.html` for the entry). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface PageBudget {
  page: string;
  /** The address, for the reader (skin prefixes aside). */
  path: string;
  /** The manifest keys of the lazy chunks the page loads to show itself, in order. */
  lazy: string[];
  /** Gzip'd JavaScript allowed, in KB (1024 bytes). */
  budgetKb: number;
  /** Where the budget should come down to, when the page is not there yet (shown, not enforced). */
  goalKb?: number;
}

/**
 * The budgets, in one place: each page's size at the last change to its code, plus about 5 % (rounded up
 * to 5 KB). Growing past one fails `npm test`; a change that shrinks a page lowers its budget with it. The
 * home page's budget is its goal, 150 KB (decisions 0029, 0032); the stream page, which carries the chat's
 * moderation and emotes since, is held to 305 KB with 300 KB still its goal (the toy-device controls, loaded
 * on every stream page, are the next to load on demand).
 */
export const PAGE_BUDGETS: PageBudget[] = [
  { page: 'home', path: '/', lazy: [], budgetKb: 150 },
  { page: 'stream', path: '/streams/stream-view', lazy: ['features/streams/StreamViewPage.tsx', 'features/streams/HlsPlayer.tsx'], budgetKb: 305, goalKb: 300 },
  { page: 'post', path: '/post/post-view', lazy: ['features/posts/PostViewPage.tsx', 'features/streams/HlsPlayer.tsx'], budgetKb: 345 },
  { page: 'channel', path: '/channel/channel', lazy: ['features/channels/ChannelPage.tsx'], budgetKb: 160 },
  { page: 'profile', path: '/u/:id', lazy: ['features/profiles/ProfilePage.tsx'], budgetKb: 175 },
  { page: 'login', path: '/user/login', lazy: ['features/accounts/LoginPage.tsx'], budgetKb: 195 },
  { page: 'sign-up', path: '/user/sign-up', lazy: ['features/accounts/SignUpPage.tsx'], budgetKb: 190 },
  { page: 'wallet', path: '/user/account', lazy: ['features/wallet/WalletPage.tsx'], budgetKb: 185 },
  { page: 'dashboard', path: '/dashboard', lazy: ['features/streams/DashboardPage.tsx', 'features/streams/HlsPlayer.tsx'], budgetKb: 350 },
  { page: 'upload', path: '/user/upload', lazy: ['features/posts/UploadPage.tsx'], budgetKb: 220 },
  { page: 'meetings', path: '/user/schedule-meetings', lazy: ['features/meetings/ScheduleMeetingsPage.tsx'], budgetKb: 235 },
  { page: 'meeting room', path: '/streams/meeting-view', lazy: ['features/meetings/MeetingRoomPage.tsx'], budgetKb: 215 },
  { page: 'analytics', path: '/user/analytics', lazy: ['features/analytics/AnalyticsPage.tsx'], budgetKb: 185 },
  { page: 'console', path: '/admin', lazy: ['features/console/ConsolePage.tsx'], budgetKb: 175 },
  { page: 'statements', path: '/user/statements', lazy: ['features/statements/StatementPage.tsx'], budgetKb: 190 },
  { page: 'messages', path: '/messages', lazy: ['features/messages/MessagesPage.tsx'], budgetKb: 230 },
];

const ENTRY = 'index.html';

/** The JavaScript files loading `keys` fetches: each chunk, then its static imports, depth first, each file once. */
export function filesFor(manifest: Manifest, keys: readonly string[]): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string, from: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no chunk ${key} (named by ${from}): was the file moved or renamed?`);
    seen.add(key);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported, key);
  };
  for (const key of keys) visit(key, 'the page budgets');
  return files;
}

export interface PageWeight {
  page: string;
  path: string;
  files: string[];
  /** Gzip'd bytes of all `files`. */
  bytes: number;
  budgetKb: number;
  goalKb?: number;
}

export function pageWeights(manifest: Manifest, sizeOf: (file: string) => number, budgets: readonly PageBudget[] = PAGE_BUDGETS): PageWeight[] {
  return budgets.map(({ page, path: address, lazy, budgetKb, goalKb }) => {
    const files = filesFor(manifest, [ENTRY, ...lazy]);
    return { page, path: address, files, bytes: files.reduce((sum, file) => sum + sizeOf(file), 0), budgetKb, ...(goalKb ? { goalKb } : {}) };
  });
}

export const kb = (bytes: number) => bytes / 1024;

/** One sentence per page over its budget: the page, its size and its budget. */
export function overBudget(weights: readonly PageWeight[]): string[] {
  return weights
    .filter((w) => kb(w.bytes) > w.budgetKb)
    .map((w) => `Page ${w.page} (${w.path}) loads ${kb(w.bytes).toFixed(1)} KB of gzip'd JavaScript, over its budget of ${w.budgetKb} KB.`);
}

/** The weights of a built app in `dist` (with its manifest). */
export function measureBuild(dist: string, budgets: readonly PageBudget[] = PAGE_BUDGETS): PageWeight[] {
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`No ${manifestFile}: build the web app first (npm run build:web).`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const sizes = new Map<string, number>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) sizes.set(file, (size = gzip(readFileSync(path.join(dist, file))).length));
    return size;
  };
  return pageWeights(manifest, sizeOf, budgets);
}

/** The table: page, files, gzip'd KB, budget, and (given a reference build's weights) the reference's KB and the ratio. */
export function weightTable(weights: readonly PageWeight[], reference?: readonly PageWeight[]): string {
  const cells = (w: PageWeight) => {
    const ref = reference?.find((r) => r.page === w.page);
    return [
      w.page,
      String(w.files.length),
      ...(reference ? [ref ? kb(ref.bytes).toFixed(1) : '-'] : []),
      kb(w.bytes).toFixed(1),
      ...(reference ? [ref ? (w.bytes / ref.bytes).toFixed(2) : '-'] : []),
      String(w.budgetKb),
      w.goalKb ? String(w.goalKb) : '',
      kb(w.bytes) > w.budgetKb ? 'OVER' : 'ok',
    ];
  };
  const header = ['page', 'files', ...(reference ? ['before KB'] : []), 'gzip KB', ...(reference ? ['ratio'] : []), 'budget KB', 'goal KB', ''];
  const rows = [header, ...weights.map(cells)];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()).join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const weights = measureBuild(path.resolve(process.argv[2] ?? 'dist/web'));
  console.log(weightTable(weights));
  const over = overBudget(weights);
  for (const line of over) console.error(line);
  process.exit(over.length ? 1 : 0);
}
