import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintAs as lint, ROOT } from './lint-as';
import { cssImportsOf, cycleIn, featureGraph } from './module-boundaries.js';

describe('the web features under the module rule', () => {
  it("refuse another feature's components, hooks and style sheets, and take its index", () => {
    expect(lint('web/features/posts/probe.tsx', "import { useBalance } from '../wallet/api';")).toEqual([
      expect.stringContaining('Feature "posts" reaches "wallet" through its internals (web/features/wallet/api.ts)'),
    ]);
    expect(lint('web/features/posts/probe.tsx', "import styles from '../wallet/wallet.module.css';")).toHaveLength(1);
    expect(lint('web/features/posts/probe.tsx', "const page = () => import('../wallet/WalletPage');")).toHaveLength(1);
    expect(lint('web/features/posts/probe.tsx', "import { useBalance } from '../wallet';")).toEqual([]);
    expect(lint('web/features/posts/probe.tsx', "import { postPath } from './post-rules';")).toEqual([]);
    expect(lint('web/features/posts/probe.tsx', "import { Tile } from '../../ui/Tile';")).toEqual([]);
  });

  it('refuse an import that closes a cycle between features', () => {
    // streams shows the wallet's balances: the wallet importing streams would close the circle.
    expect(lint('web/features/wallet/probe.tsx', "import { Player } from '../streams';")).toEqual([
      expect.stringMatching(/^Import cycle between web features: wallet → streams( → \w+)* → wallet\.$/),
    ]);
  });

  it('have no import between features but through an index, style sheets included', () => {
    expect(featureGraph().crossings).toEqual([]);
  });

  it('import each other without a cycle, style sheets included', () => {
    const { edges } = featureGraph();
    expect(edges.get('streams')).toContain('wallet');
    expect(cycleIn(edges)).toBeNull();
  });

  it('have entries that only re-export, so a page takes what it imports through one and nothing else (web/vite.config.ts)', () => {
    const features = path.join(ROOT, 'web/features');
    const entries = readdirSync(features).map((name) => path.join(features, name, 'index.ts')).filter((file) => existsSync(file));
    expect(entries.length).toBeGreaterThan(10);
    for (const entry of entries) {
      const code = readFileSync(entry, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      const statements = code.split(';').map((statement) => statement.trim()).filter(Boolean);
      expect(statements.filter((statement) => !/^export (type )?\{[^}]*\} from '\.\/[^']+'$/.test(statement)), path.relative(ROOT, entry)).toEqual([]);
    }
  });

  it("read a style sheet's imports: @import and composes from", () => {
    const sheet = path.join(ROOT, 'web/features/meetings/probe.module.css');
    const css = ".a { composes: icon from '../../ui/PayWallCard.module.css'; }\n@import '../../global.css';\n.b { composes: c; }";
    expect(cssImportsOf(sheet, css)).toEqual([path.join(ROOT, 'web/ui/PayWallCard.module.css'), path.join(ROOT, 'web/global.css')]);
  });

  it('find a cycle, and only a cycle', () => {
    const graph = (pairs: Array<[string, string]>) => {
      const edges = new Map<string, Set<string>>();
      for (const [from, to] of pairs) edges.set(from, new Set([...(edges.get(from) ?? []), to]));
      return edges;
    };
    expect(cycleIn(graph([['shell', 'streams'], ['streams', 'tips'], ['tips', 'wallet']]))).toBeNull();
    expect(cycleIn(graph([['shell', 'streams'], ['streams', 'tips'], ['tips', 'streams']]))).toEqual(['streams', 'tips', 'streams']);
  });
});
