/**
 * What a vitest JSON report says to the test command's summary: the counts, and the tests that did not
 * run, gathered by file and suite with the reason their suite's name gives ("[skipped: PostgreSQL: …]",
 * server/testing/suite-needing.ts), so no suite is skipped unnamed (decision 0053).
 */
import path from 'node:path';

export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: Array<{
    name: string;
    assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }>;
  }>;
}

export interface SkippedGroup {
  /** `file › suite`, or `file › test` for a test outside any suite. */
  where: string;
  tests: number;
  /** The reason the suite's or test's name carries in brackets, else what was skipped. */
  why: string;
}

const NOT_RUN = new Set(['skipped', 'pending', 'todo']);
const REASON = /\[(?:skipped: )?([^\]]+)\]\s*$/;

/** The tests of `report` that did not run, one line per file and top-level suite. */
export function skippedGroups(report: VitestReport, root: string): SkippedGroup[] {
  const groups = new Map<string, SkippedGroup>();
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (!NOT_RUN.has(test.status)) continue;
      const title = test.ancestorTitles[0] ?? test.title;
      const where = `${path.relative(root, file.name)} › ${title.replace(REASON, '').trim()}`;
      const reason = REASON.exec(title)?.[1] ?? REASON.exec(test.title)?.[1] ?? (test.status === 'todo' ? 'to do' : 'skipped in the file (no reason given)');
      const group = groups.get(where) ?? { where, tests: 0, why: reason };
      group.tests += 1;
      groups.set(where, group);
    }
  }
  return [...groups.values()];
}
