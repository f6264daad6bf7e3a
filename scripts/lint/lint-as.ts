import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import boundaries from './module-boundaries.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** The boundary rules' messages for `code` linted as if it were the file at `file` (relative to the repository); for their tests. */
export function lintAs(file: string, code: string): string[] {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(code, [{
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { limelight: boundaries },
    rules: { 'limelight/module-entry': 'error', 'limelight/no-cycles': 'error' },
  }], { filename: path.join(ROOT, file) }).map((message) => message.message);
}
