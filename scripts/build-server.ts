/**
 * `npm run build:server`: the server as one plain JavaScript file Node runs without tsx (decision 0067):
 * server/main.ts and everything of ours it imports (server/, common/) bundled by esbuild into
 * dist/server/main.js, the packages left as imports of node_modules. A file the code finds beside its
 * source at run time (`new URL('./migrations', import.meta.url)`: the SQL migrations, the embedded
 * database's worker, the docs' favicon) is copied under dist/server/assets/ at its path in the repository
 * and the URL pointed there, so dist/ runs wherever it is put beside node_modules. The build fails when
 * such a file is missing, or when the server imports a package that `npm ci --omit=dev` would not install.
 */
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_OUT = path.join(ROOT, 'dist/server');
const ENTRY = 'server/main.ts';
const ASSETS = 'assets';
/** drizzle-kit's record of the schema after each migration: for generating the next one, never read by the server. */
const NOT_SHIPPED = /[\\/]meta[\\/]\d+_snapshot\.json$/;

const RUNTIME_URL = /new URL\((['"])(\.{1,2}\/[^'"]+)\1,\s*import\.meta\.url\)/g;
const SOURCE_DIR = /import\.meta\.dirname/g;

/** Where a source file's runtime references point once bundled into `outDir`; the files they name are copied by `copyAssets`. */
function runtimeFiles(outDir: string, assets: Set<string>): Plugin {
  return {
    name: 'limelight-runtime-files',
    setup(builder) {
      builder.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        const dir = path.dirname(args.path);
        const errors: Array<{ text: string }> = [];
        const contents = source
          .replace(RUNTIME_URL, (_, quote: string, relative: string) => {
            const target = path.resolve(dir, relative);
            if (!existsSync(target)) errors.push({ text: `${path.relative(ROOT, args.path)} reads ${relative}, which does not exist` });
            const inRepo = path.relative(ROOT, target).split(path.sep).join('/');
            assets.add(inRepo);
            return `new URL(${quote}./${ASSETS}/${inRepo}${quote}, import.meta.url)`;
          })
          // The source file's own directory (route-table.ts names handlers' files by it): where it is in the
          // checkout, relative to the bundle; nothing is read there.
          .replace(SOURCE_DIR, () => `(import.meta.dirname + ${JSON.stringify(`/${path.relative(outDir, dir).split(path.sep).join('/')}`)})`);
        return errors.length > 0 ? { errors } : { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}

function copyAssets(outDir: string, assets: Set<string>): void {
  for (const asset of assets) {
    const from = path.join(ROOT, asset);
    const to = path.join(outDir, ASSETS, asset);
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(from, to, { recursive: statSync(from).isDirectory(), filter: (file) => !NOT_SHIPPED.test(file) });
  }
}

/** The package a bare import names (`@fastify/static/x` → `@fastify/static`). */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Packages the bundle imports that a production install (`npm ci --omit=dev`) would leave out. */
function devOnlyImports(imports: string[]): string[] {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const builtins = new Set(builtinModules);
  return [...new Set(imports.filter((s) => !s.startsWith('node:') && !builtins.has(s)).map(packageOf))]
    .filter((name) => !(name in manifest.dependencies))
    .sort();
}

/**
 * Builds into `outDir` (emptied first; dist/server by default). It must be inside the repository, where
 * the bundle's imports find node_modules.
 */
export async function buildServer(outDir = SERVER_OUT): Promise<{ file: string; bytes: number; ms: number }> {
  const started = performance.now();
  rmSync(outDir, { recursive: true, force: true });
  const assets = new Set<string>();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: path.join(outDir, 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Module factories are named by their function's name (platform/module-loader.ts): names are kept.
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    // The compiled server is the production server: NODE_ENV defaults to production (no demo data, no
    // readable outbox, no test cards unless asked for: server/config.ts), whatever starts it.
    banner: { js: "process.env.NODE_ENV ??= 'production';" },
    metafile: true,
    logLevel: 'warning',
    plugins: [runtimeFiles(outDir, assets)],
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external).map((i) => i.path));
  const missing = devOnlyImports(imports);
  if (missing.length > 0) throw new Error(`the server imports ${missing.join(', ')}, which package.json lists outside "dependencies": a production install would not have them`);
  copyAssets(outDir, assets);
  // The bundle is an ES module wherever dist/ is put, whatever package.json is beside it.
  writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  const file = path.join(outDir, 'main.js');
  return { file, bytes: statSync(file).size, ms: Math.round(performance.now() - started) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildServer();
  console.log(`${path.relative(ROOT, built.file)}: ${(built.bytes / 1_048_576).toFixed(1)} MB in ${built.ms} ms`);
}
