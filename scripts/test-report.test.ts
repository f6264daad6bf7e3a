import { describe, expect, it } from 'vitest';
import { skippedGroups, type VitestReport } from './test-report';

const report = (results: VitestReport['testResults']): VitestReport => ({ numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, testResults: results });

describe('skipped groups', () => {
  it('names each skipped suite once with the reason its name carries, and leaves out what ran', () => {
    const groups = skippedGroups(report([
      {
        name: '/repo/server/chat/chat-scale.int.test.ts',
        assertionResults: [
          { ancestorTitles: ['chat scaled out [skipped: Redis: TEST_REDIS_URL is not set]'], title: 'carries a COMMENT', status: 'skipped' },
          { ancestorTitles: ['chat scaled out [skipped: Redis: TEST_REDIS_URL is not set]'], title: 'carries a TIP', status: 'pending' },
        ],
      },
      {
        name: '/repo/server/db/faults.int.test.ts',
        assertionResults: [
          { ancestorTitles: ['database faults [runs in the PostgreSQL project]'], title: 'answers 503', status: 'skipped' },
          { ancestorTitles: ['other'], title: 'ran', status: 'passed' },
          { ancestorTitles: [], title: 'later', status: 'todo' },
          { ancestorTitles: ['a suite'], title: 'quietly skipped', status: 'skipped' },
        ],
      },
    ]), '/repo');
    expect(groups).toEqual([
      { where: 'server/chat/chat-scale.int.test.ts › chat scaled out', tests: 2, why: 'Redis: TEST_REDIS_URL is not set' },
      { where: 'server/db/faults.int.test.ts › database faults', tests: 1, why: 'runs in the PostgreSQL project' },
      { where: 'server/db/faults.int.test.ts › later', tests: 1, why: 'to do' },
      { where: 'server/db/faults.int.test.ts › a suite', tests: 1, why: 'skipped in the file (no reason given)' },
    ]);
  });
});
