/**
 * Two complaints about the demo replays, so the operator console's reports queue has something to act on
 * at a fresh start: viewer1 about broadcaster2's replay, viewer2 about broadcaster1's.
 */
import type { Db } from '../platform/db/client';
import { recordPastReport } from '../modules/streams';

const HOUR_MS = 3_600_000;

export async function seedDemoReports(db: Db, accounts: Map<string, number>, replays: Map<string, number>, now: Date = new Date()): Promise<number> {
  const complaints = [
    { reporter: 'viewer1', owner: 'broadcaster2', type: 'troll', comment: 'Keeps posting links to another site in the chat.', hoursAgo: 5 },
    { reporter: 'viewer2', owner: 'broadcaster1', type: 'inappropriate', comment: 'Strong language in the first minutes.', hoursAgo: 2 },
  ] as const;
  let filed = 0;
  for (const { reporter, owner, type, comment, hoursAgo } of complaints) {
    const reporterId = accounts.get(reporter);
    const streamId = replays.get(owner);
    if (reporterId === undefined || streamId === undefined) continue;
    await recordPastReport(db, { streamId, reporterId, type, comment, at: new Date(now.getTime() - hoursAgo * HOUR_MS) });
    filed += 1;
  }
  return filed;
}
