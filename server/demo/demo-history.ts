/**
 * A few months of history for the demo broadcasters, so the analytics and referral dashboards show
 * something on a fresh start. Over the last 120 days: the demo viewers tip broadcaster1 and broadcaster2
 * on their replays (through the ledger, at the times they happened), visitors watch the replays and the
 * viewers follow. broadcaster2 is in the referral programme: viewer3 and viewer4 signed up through its
 * influencer link and broadcaster3 through its agent link 90 days ago, broadcaster3 was tipped since,
 * and the commissions of the days since are settled. The same pseudo-random sequence every time.
 */
import type { Db } from '../platform/db/client';
import type { ModuleServices } from '../platform/module';
import { DEFAULT_PLATFORM_FEES } from '../config';
import { depositTransfer, platformFee, type TransferRequest } from '../modules/ledger';
import { pastTipTransfer, type PastTip } from '../modules/tips';
import { recordPastFollow } from '../modules/social';
import { recordPastViews, type PastView } from '../modules/streams';

const DAYS = 120;
const DAY_MS = 86_400_000;
const TIP_AMOUNTS = [5, 10, 10, 20, 20, 50, 100, 200];
/** Coins each demo viewer is given for the history's tips. */
const HISTORY_COINS = 20_000;

type Services = Pick<ModuleServices, 'ledger' | 'referrals' | 'analytics'>;

/** A past tip with the platform's default fee taken, as a tip is today: referral commissions are a share of it (decision 0036). */
function feeTakingTip(tip: PastTip): TransferRequest {
  const request = pastTipTransfer(tip);
  const percent = DEFAULT_PLATFORM_FEES.tip ?? 0;
  const fee = platformFee(tip.amount, percent);
  return {
    ...request,
    details: { ...request.details, fee, fee_percent: percent },
    legs: [
      { account: { userId: tip.tipperId, currency: 'CON' }, amount: -tip.amount },
      { account: { userId: tip.creatorId, currency: 'CON' }, amount: tip.amount - fee },
      { account: { system: 'fees', currency: 'CON' }, amount: fee },
    ],
  };
}

/** A small deterministic generator: the demo's history is the same on every fresh install. */
function sequence(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

export async function seedDemoHistory(
  deps: { db: Db; services: Services },
  accounts: Map<string, number>,
  replays: Map<string, number>,
  now: Date = new Date(),
): Promise<void> {
  const { db, services } = deps;
  const random = sequence(20_161_231);
  const id = (username: string) => accounts.get(username);
  const viewers = ['viewer1', 'viewer2', 'viewer3', 'viewer4'].map(id).filter((v): v is number => v !== undefined);
  const ago = (days: number, minutes: number) => new Date(now.getTime() - days * DAY_MS - minutes * 60_000);
  let keys = 0;

  // The coins are bought as the sandbox's card payments would record them (decision 0036): a cent a coin.
  for (const viewer of viewers) {
    const key = `demo-history-coins:${viewer}`;
    await services.ledger.transfer(depositTransfer({
      userId: viewer, coins: HISTORY_COINS, money: { account: 'card-payments', currency: 'USD', cents: HISTORY_COINS },
      paymentReference: `sandbox:${key}`, idempotencyKey: key, details: { provider: 'sandbox' }, bookedAt: ago(DAYS + 1, 0),
    }));
  }

  for (const username of ['broadcaster1', 'broadcaster2']) {
    const creatorId = id(username);
    if (creatorId === undefined) continue;
    const streamId = replays.get(username) ?? null;
    const views: PastView[] = [];
    for (let day = DAYS; day >= 1; day--) {
      const tips = Math.floor(random() * 4);
      for (let i = 0; i < tips; i++) {
        const tipperId = viewers[Math.floor(random() * random() * viewers.length)]!;
        const amount = TIP_AMOUNTS[Math.floor(random() * TIP_AMOUNTS.length)]!;
        await services.ledger.transfer(feeTakingTip({ tipperId, creatorId, streamId, amount, at: ago(day, 60 + Math.floor(random() * 600)), key: `demo-history-${(keys += 1)}` }));
      }
      const visitors = 2 + Math.floor(random() * 12);
      for (let i = 0; i < visitors; i++) views.push({ viewerKey: `demo-visitor-${day}-${i}`, at: ago(day, Math.floor(random() * 900)) });
    }
    if (streamId !== null) await recordPastViews(db, streamId, views);
    for (const [index, viewer] of viewers.entries()) await recordPastFollow(db, viewer, creatorId, ago(DAYS - index * 25, 30));
  }

  await referralHistory(services, id, viewers, replays, ago, () => `demo-history-${(keys += 1)}`, random);
  // The fold may have run while this history was written with earlier times: fold it all again.
  await services.analytics.fold.rebuild();
}

/** broadcaster2's referral programme: three people brought in 90 days ago, broadcaster3 tipped since, the days settled. */
async function referralHistory(
  services: Services,
  id: (username: string) => number | undefined,
  viewers: number[],
  replays: Map<string, number>,
  ago: (days: number, minutes: number) => Date,
  nextKey: () => string,
  random: () => number,
): Promise<void> {
  const referrer = id('broadcaster2');
  if (referrer === undefined) return;
  // broadcaster3, brought in as a broadcaster, is tipped by the demo viewers since (written before the
  // referrals, so a settlement running meanwhile finds the periods' activity complete).
  const agentBrought = id('broadcaster3');
  if (agentBrought !== undefined) {
    for (let day = 89; day >= 1; day -= 3) {
      const tipperId = viewers[Math.floor(random() * viewers.length)]!;
      await services.ledger.transfer(feeTakingTip({ tipperId, creatorId: agentBrought, streamId: replays.get('broadcaster3') ?? null, amount: 50, at: ago(day, 120), key: nextKey() }));
    }
  }
  const links = await services.referrals.codes.links(referrer);
  const linkOf = (type: 'AGENT' | 'INFLUENCER') => links.find((link) => link.type === type && link.campaign === null)!;
  const referred: Array<[string, 'AGENT' | 'INFLUENCER']> = [['viewer3', 'INFLUENCER'], ['viewer4', 'INFLUENCER'], ['broadcaster3', 'AGENT']];
  for (const [username, type] of referred) {
    const userId = id(username);
    if (userId !== undefined) await services.referrals.attribution.recordPast(userId, linkOf(type).id, ago(90, 0));
  }
  while ((await services.referrals.settlement.run()) > 0);
}
