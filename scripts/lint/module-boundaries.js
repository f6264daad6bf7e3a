/**
 * ESLint rules for the module contract (docs/architecture.md, "Modules"; decision 0013).
 *
 * - `module-entry`: code in server/modules/<a> reaches another module only through its entry
 *   (`../<b>`, i.e. server/modules/<b>/index.ts), never its tables, routes or other files. One
 *   exception: a tables.ts may import another module's tables.ts for its foreign keys. Code outside
 *   the modules (start-up, config, demo data, test helpers, scripts, benchmarks) is held to the same entries. The same holds
 *   for the web's features (decision 0050): code in web/features/<a> reaches another feature only
 *   through web/features/<b>/index.ts, never its components, hooks or style sheets.
 * - `no-cycles`: no import cycle between modules, between web features, nor between the top folders
 *   (common, server, web, e2e, bench, scripts). Tests are left out of the graphs.
 *
 * The graphs are read once per lint run from the files on disk (a regular expression over imports is
 * enough for our own relative imports). The features' graph counts their style sheets too: a CSS
 * module composing another's class (`composes: x from '...'`) is an import ESLint never sees, so
 * `featureGraph()` hands the graph, with such crossings, to a unit test (web-features.test.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOP_FOLDERS = ['common', 'server', 'web', 'e2e', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|js|mjs)$/;
const IMPORT = /(?:^|\s|;)(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const isTest = (file) => /\.(test|int\.test|e2e)\.tsx?$/.test(file);
const relative = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/** `server/modules/<name>` for a file inside a module, else null. */
function moduleOf(file) {
  const match = /^server\/modules\/([^/]+)\//.exec(relative(file));
  return match ? match[1] : null;
}

/** `web/features/<name>` for a file inside a web feature, else null. */
function featureOf(file) {
  const match = /^web\/features\/([^/]+)\//.exec(relative(file));
  return match ? match[1] : null;
}

/** Whether `target` is the entry (index.ts) of web feature `feature`. */
const isFeatureEntry = (target, feature) => path.basename(target) === 'index.ts' && path.dirname(target) === path.join(ROOT, 'web/features', feature);

function topOf(file) {
  const first = relative(file).split('/')[0];
  return TOP_FOLDERS.includes(first) ? first : null;
}

/** The file a relative specifier names, as the TypeScript bundler resolution finds it. */
function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.js$/, '.ts'), path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? null;
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (SOURCE.test(entry.name)) yield full;
  }
}

function importsOf(file, text) {
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const target = resolveImport(file, match[1] ?? match[2]);
    if (target) found.push(target);
  }
  return found;
}

/** What a style sheet imports: `@import '...'` and `composes: a b from '...'`. */
const CSS_IMPORT = /@import\s+(?:url\()?['"]([^'"]+)['"]|composes:[^;{}]*?\sfrom\s+['"]([^'"]+)['"]/g;

export function cssImportsOf(file, text) {
  const found = [];
  for (const match of text.matchAll(CSS_IMPORT)) {
    const target = resolveImport(file, match[1] ?? match[2]);
    if (target) found.push(target);
  }
  return found;
}

function* styleSheets(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* styleSheets(full);
    else if (entry.name.endsWith('.css')) yield full;
  }
}

const addEdge = (graph, from, to) => {
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from).add(to);
};

/**
 * The web features' import graph, scripts and style sheets alike (tests left out): `edges` maps a
 * feature to those it imports, and `crossings` lists every import of another feature other than its
 * index.ts (`file` imports `target`), style sheets' included.
 */
export function featureGraph() {
  const edges = new Map();
  const crossings = [];
  const dir = path.join(ROOT, 'web/features');
  const visit = (file, targets) => {
    const from = featureOf(file);
    for (const target of targets) {
      const to = featureOf(target);
      if (!from || !to || from === to) continue;
      addEdge(edges, from, to);
      if (!isFeatureEntry(target, to)) crossings.push({ file: relative(file), target: relative(target) });
    }
  };
  for (const file of sourceFiles(dir)) if (!isTest(file)) visit(file, importsOf(file, readFileSync(file, 'utf8')));
  for (const file of styleSheets(dir)) visit(file, cssImportsOf(file, readFileSync(file, 'utf8')));
  return { edges, crossings };
}

/** A cycle in the graph as a list of nodes (first one repeated at the end), or null. */
export function cycleIn(graph) {
  for (const start of graph.keys()) {
    for (const next of graph.get(start)) {
      const back = pathBetween(graph, next, start);
      if (back) return [start, ...back];
    }
  }
  return null;
}

let graphs;
/** Edges between modules and between top folders, from every non-test source file. */
function buildGraphs() {
  const modules = new Map();
  const tops = new Map();
  const add = addEdge;
  for (const top of TOP_FOLDERS) {
    const dir = path.join(ROOT, top);
    if (!existsSync(dir)) continue;
    for (const file of sourceFiles(dir)) {
      if (isTest(file)) continue;
      for (const target of importsOf(file, readFileSync(file, 'utf8'))) {
        const [fromModule, toModule] = [moduleOf(file), moduleOf(target)];
        if (fromModule && toModule && fromModule !== toModule) add(modules, fromModule, toModule);
        const [fromTop, toTop] = [topOf(file), topOf(target)];
        if (fromTop && toTop && fromTop !== toTop) add(tops, fromTop, toTop);
      }
    }
  }
  return { modules, tops, features: featureGraph().edges };
}

/** A path from `from` to `to` in the graph, or null. */
function pathBetween(graph, from, to) {
  const seen = new Set([from]);
  const queue = [[from]];
  while (queue.length > 0) {
    const trail = queue.shift();
    const last = trail[trail.length - 1];
    if (last === to) return trail;
    for (const next of graph.get(last) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...trail, next]);
    }
  }
  return null;
}

/** Calls `check(node, specifier)` for every import and re-export of a file. */
function visitImports(check) {
  const source = (node) => (node.source && typeof node.source.value === 'string' ? check(node, node.source.value) : undefined);
  return {
    ImportDeclaration: source,
    ExportNamedDeclaration: source,
    ExportAllDeclaration: source,
    ImportExpression: source,
  };
}

const moduleEntry = {
  meta: { type: 'problem', docs: { description: "reach another module or web feature only through its entry (index.ts)" }, schema: [] },
  create(context) {
    const file = context.filename;
    if (isTest(file)) return {};
    const feature = featureOf(file);
    if (feature) {
      return visitImports((node, specifier) => {
        const target = resolveImport(file, specifier);
        const to = target && featureOf(target);
        if (!to || to === feature || isFeatureEntry(target, to)) return;
        context.report({ node, message: `Feature "${feature}" reaches "${to}" through its internals (${relative(target)}): import from '../${to}' (its index.ts) instead.` });
      });
    }
    // A module's own files, and every file outside the modules (start-up, demo data, test helpers, scripts, benchmarks).
    const from = moduleOf(file);
    return visitImports((node, specifier) => {
      const target = resolveImport(file, specifier);
      const to = target && moduleOf(target);
      if (!to || to === from) return;
      const entry = path.basename(target) === 'index.ts' && path.dirname(target) === path.join(ROOT, 'server/modules', to);
      const foreignKey = from !== null && path.basename(file) === 'tables.ts' && path.basename(target) === 'tables.ts';
      if (entry || foreignKey) return;
      const who = from ? `Module "${from}"` : relative(file);
      context.report({ node, message: `${who} reaches module "${to}" through its internals (${relative(target)}): import from its index.ts instead.` });
    });
  },
};

const noCycles = {
  meta: { type: 'problem', docs: { description: 'no import cycle between modules, web features or top folders' }, schema: [] },
  create(context) {
    const file = context.filename;
    if (isTest(file)) return {};
    graphs ??= buildGraphs();
    return visitImports((node, specifier) => {
      const target = resolveImport(file, specifier);
      if (!target) return;
      for (const [kind, graph, of] of [['modules', graphs.modules, moduleOf], ['web features', graphs.features, featureOf], ['top folders', graphs.tops, topOf]]) {
        const [from, to] = [of(file), of(target)];
        if (!from || !to || from === to) continue;
        const back = pathBetween(graph, to, from);
        if (back) context.report({ node, message: `Import cycle between ${kind}: ${[from, ...back].join(' → ')}.` });
      }
    });
  },
};

export default { rules: { 'module-entry': moduleEntry, 'no-cycles': noCycles } };
