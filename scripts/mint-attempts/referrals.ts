/**
 * Finding 1: farming referral commissions. A programme holder signs up a second account through their
 * own influencer link; the two follow each other and pay each other's video calls back and forth, each
 * payment with a fresh idempotency key; the server's settlement job runs. Before decision 0036 the pair
 * ended with more coins than it bought (commissions on the gross of fee-free calls, from an unfunded
 * `referrals` account).
 */
import type { AttemptContext, AttemptResult, Person } from './context';

const ROUNDS = 5;
const CALL_PRICE = 250;

async function paidCall(host: Person, guest: Person, round: number) {
  const created = await host.client.ok('/api/user/create-meeting', {
    audience_ids: String(guest.userId), title: `Call ${round}`, start_time: new Date(Date.now() + 3_600_000).toISOString(),
    tip_rules: { currency: 'CON', viewer_min_amount: CALL_PRICE },
  });
  const id = (created.data as { meeting_id: number }).meeting_id;
  await guest.client.ok('/api/user/pay-meeting', { id, amount: CALL_PRICE }, { 'idempotency-key': `farm-${host.userId}-${round}-${Math.random()}` });
}

export async function attempt(ctx: AttemptContext): Promise<AttemptResult> {
  const signedUp = await ctx.signUp();
  await ctx.grantPermission(signedUp, 'ALLOW REFERRAL_ACCESS');
  const holder = await ctx.signIn(signedUp);
  const links = (await holder.client.get('/api/user/referral-summary')).body.links as Array<{ code: string; type: string; campaign: string | null }>;
  const influencer = links.find((link) => link.type === 'INFLUENCER' && link.campaign === null);
  if (!influencer) throw new Error(`the holder has no influencer link: ${JSON.stringify(links)}`);
  const second = await ctx.signUp({ referralCode: influencer.code });

  await holder.client.ok('/api/user/toggle-following', { id: second.userId, isFollowing: true });
  await second.client.ok('/api/user/toggle-following', { id: holder.userId, isFollowing: true });
  const coinsIn = (await ctx.deposit(holder, 1000)) + (await ctx.deposit(second, 1000));

  for (let round = 1; round <= ROUNDS; round++) {
    await paidCall(holder, second, round);
    await paidCall(second, holder, round);
  }
  await ctx.waitForSettlements();
  return { name: 'referrals: a holder and their second account pay each other\'s video calls', coinsIn, coinsOut: (await ctx.coinsOf(holder)) + (await ctx.coinsOf(second)) };
}
