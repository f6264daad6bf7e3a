/**
 * Demo content of a fresh evaluation install, made once: the demo accounts, their subscription plans,
 * image posts, a video call and two advertiser offers, then a few short replays carrying the offers, and
 * a few months of tips, views, follows and referrals behind them (the dashboards' history), and two
 * complaints about the replays for the console's reports queue.
 * Only the instance whose transaction created the accounts makes the replays, so a restart, or a
 * second instance starting beside it, adds nothing.
 */
import type { Db } from '../platform/db/client';
import type { ModuleServices } from '../platform/module';
import type { FileStore } from '../platform/storage/storage';
import { seedDemoData, type CreatedDemoAccount } from './demo-data';
import { seedDemoMeetings } from './demo-meetings';
import { seedDemoOffers } from './demo-offers';
import { seedDemoPlans } from './demo-plans';
import { seedDemoPosts } from './demo-posts';
import { seedDemoReplays } from './demo-replays';
import { seedDemoHistory } from './demo-history';
import { seedDemoReports } from './demo-reports';

export interface SeededDemo {
  accounts: CreatedDemoAccount[];
  replays: number;
  /** Why the replays could not be made (the accounts stand; the listings stay empty until someone goes live). */
  replayError?: string;
}

export async function seedDemo(
  deps: { db: Db; files: FileStore; services: ModuleServices },
  options: { adminPassword?: string } = {},
): Promise<SeededDemo> {
  const accounts = await seedDemoData({ db: deps.db, ...deps.services }, options);
  const admin = accounts.find((account) => account.role === 'admin');
  if (!admin) return { accounts, replays: 0 };
  const broadcasters = new Map(accounts.map((account) => [account.username, account.userId]));
  await seedDemoPlans(deps.services, accounts.filter((a) => a.username.startsWith('broadcaster')).map((a) => a.userId));
  await seedDemoPosts(deps.services, broadcasters);
  await seedDemoMeetings(deps.services, broadcasters);
  const offerIds = await seedDemoOffers(deps.services, admin.userId);
  let replays = new Map<string, number>();
  let replayError: string | undefined;
  try {
    replays = await seedDemoReplays(deps.services, deps.files, { broadcasters, moderatorId: admin.userId, offerIds });
  } catch (error) {
    replayError = error instanceof Error ? error.message : String(error);
  }
  await seedDemoHistory(deps, broadcasters, replays);
  await seedDemoReports(deps.db, broadcasters, replays);
  return { accounts, replays: replays.size, ...(replayError ? { replayError } : {}) };
}
