import type { ESLint } from 'eslint';

/** The module boundary rules (module-boundaries.js). */
declare const plugin: ESLint.Plugin;
export default plugin;
