import type { ESLint } from 'eslint';

/** The module boundary rules (module-boundaries.js). */
declare const plugin: ESLint.Plugin;
export default plugin;

/** The web features' import graph (scripts and style sheets, tests left out), and every import of another feature not through its index.ts. */
export function featureGraph(): { edges: Map<string, Set<string>>; crossings: Array<{ file: string; target: string }> };

/** A cycle in a graph (its first node repeated at the end), or null. */
export function cycleIn(graph: Map<string, Set<string>>): string[] | null;

/** The files a style sheet at `file` imports (`@import`, `composes: ... from`), resolved. */
export function cssImportsOf(file: string, text: string): string[];
