/**
 * Findings 2 and 3 as outsider attempts (decision 0037), for the mint-attempts runner:
 * - an advertiser attaches an offer paying 1,000 coins per impression, click and completion to their own
 *   stream and has three accounts of theirs watch it (before: 6,000 coins paid by the unfunded `advertising`
 *   account);
 * - a broadcaster whose stream is not live generates ad activity for someone else's offer from a script on
 *   another site: the VAST document fetched with a foreign Origin, its pixels (or forged ones) fired out of
 *   order, as fresh visitors without cookies (before: counted and paid per visitor address and hour).
 * Each answers the coins its attackers put in and hold at the end; whatever an attacker funded is taken
 * back (paused, withdrawn) before counting, so coins created = coinsOut − coinsIn must be 0 or less.
 *
 * The server must settle ad commissions quickly for the attempt to see them: run it with
 * SERVER_SETTINGS (a 10-second settlement period); the attempt then waits out one period, the grace and
 * the job's interval after the last activity.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { Client, type AttemptContext, type AttemptResult, type Person } from './context';

/** The server's settings these attempts need beside the runner's own. */
export const SERVER_SETTINGS = { ADS_SETTLEMENT_SECONDS: '10' } as const;
/** A 10 s period, 15 s of grace and a job every 15 s, with a margin. */
const SETTLEMENT_WAIT_MS = 45_000;
const FOREIGN_ORIGIN = 'https://elsewhere.example';
const BIG = { impression: 1000, click: 1000, complete: 1000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const key = () => ({ 'idempotency-key': randomUUID() });
const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/**
 * The upload layer speaks tus (PATCH with raw bytes), which the runner's client does not: a session of
 * the same account signed in over fetch, its cookies kept by hand.
 */
async function uploadBanner(baseUrl: string, person: Pick<Person, 'username' | 'password'>): Promise<string> {
  const cookies = new Map<string, string>();
  const send = async (method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${baseUrl}${path}`, { method, body: init.body, headers: { ...init.headers, cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return res;
  };
  const csrf = String(((await (await send('GET', '/api/csrf-token')).json()) as { token: string }).token);
  const json = { 'content-type': 'application/json', 'x-csrf-token': csrf };
  const altcha = await new Client(baseUrl).captcha();
  const login = await send('POST', '/api/user/user-login', { body: JSON.stringify({ username: person.username, password: person.password, altcha }), headers: json });
  if (login.status !== 200) throw new Error(`user-login: ${login.status} ${await login.text()}`);
  const signedIn = { 'x-csrf-token': String(((await (await send('GET', '/api/csrf-token')).json()) as { token: string }).token), 'tus-resumable': '1.0.0' };
  const picture = await sharp({ create: { width: 728, height: 90, channels: 3, background: { r: 240, g: 180, b: 20 } } }).png().toBuffer();
  const metadata = `filename ${Buffer.from('banner.png').toString('base64')},filetype ${Buffer.from('image/png').toString('base64')}`;
  const created = await send('POST', '/uploads', { headers: { ...signedIn, 'upload-length': String(picture.length), 'upload-metadata': metadata } });
  const location = created.headers.get('location') ?? '';
  if (created.status !== 201) throw new Error(`upload: ${created.status} ${await created.text()}`);
  const id = location.slice(location.lastIndexOf('/') + 1);
  const sent = await send('PATCH', `/uploads/${id}`, { body: new Uint8Array(picture), headers: { ...signedIn, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' } });
  if (sent.status !== 204) throw new Error(`upload PATCH: ${sent.status} ${await sent.text()}`);
  return id;
}

/** An advertiser (CREATE AD_OFFER granted as an operator would) with a banner offer paying `commission`. */
async function advertiserWithOffer(ctx: AttemptContext, commission: typeof BIG): Promise<{ advertiser: Person; offerId: number }> {
  const signedUp = await ctx.signUp();
  await ctx.grantPermission(signedUp, 'CREATE AD_OFFER');
  const advertiser = await ctx.signIn(signedUp);
  const created = await advertiser.client.post('/api/ads/offer-create', {
    name: 'Attempt offer', short_description: 'Seen by the attempt', type: 'BANNER', rating: 'G', ad_link: 'https://shop.example/attempt', commission,
    upload_id: await uploadBanner(ctx.baseUrl, advertiser),
  });
  if (created.status !== 200) throw new Error(`offer-create: ${created.status} ${JSON.stringify(created.body)}`);
  return { advertiser, offerId: (created.body.offer as { id: number }).id };
}

/** The person's stream, set up and Go Live pressed (no encoder: it is not live). */
async function startedStream(person: Person): Promise<number> {
  const own = await person.client.post('/api/streams/get-live-stream', {});
  const streamId = (own.body.stream as { stream_id: number }).stream_id;
  await person.client.post('/api/streams/update-stream-info', { id: streamId, data: { title: 'Attempt show', audience: 'PUBLIC', rating: 'G' } });
  await person.client.post('/api/streams/go-live', { id: streamId });
  return streamId;
}

/** Takes back what is left of the advertiser's campaign, so the coins they hold are all they could. */
async function takeBack(advertiser: Person, offerId: number) {
  await advertiser.client.post('/api/ads/offer-update', { id: offerId, paused: true });
  await advertiser.client.post('/api/ads/offer-withdraw', { id: offerId }, key());
}

/** The ad settlement job has paid every period of the attempt (the runner's own wait is the referral job's). */
const settled = () => sleep(SETTLEMENT_WAIT_MS);

/** Finding 2: an advertiser's offer on their own stream, watched by three accounts of theirs. */
export async function selfPayingAdvertiser(ctx: AttemptContext): Promise<AttemptResult> {
  const { advertiser, offerId } = await advertiserWithOffer(ctx, BIG);
  const coinsIn = await ctx.deposit(advertiser, 1000);
  await advertiser.client.post('/api/ads/offer-fund', { id: offerId, coins: 1000 }, key());
  const streamId = await startedStream(advertiser);
  await advertiser.client.post('/api/ads/update-stream-offers', { offer_ids: [offerId] });
  const viewers = [await ctx.signUp(), await ctx.signUp(), await ctx.signUp()];
  for (const viewer of viewers) {
    const shown = (await viewer.client.get(`/api/ads/offer-presentation?${query({ stream_id: streamId, type: 'BANNER' })}`)).body.offer as { impression_id: string } | null;
    if (!shown) continue;
    for (const activity of ['impression', 'click', 'complete']) await viewer.client.post('/api/ads/offer-activity', { impression_id: shown.impression_id, activity });
  }
  await settled();
  await takeBack(advertiser, offerId);
  let coinsOut = await ctx.coinsOf(advertiser);
  for (const viewer of viewers) coinsOut += await ctx.coinsOf(viewer);
  return { name: 'ads: an advertiser pays themselves on their own stream', coinsIn, coinsOut };
}

/** A request from a script on another site: its Origin, no cookies (a fresh visitor each time). */
const fromElsewhere = (baseUrl: string, path: string) =>
  fetch(`${baseUrl}${path}`, { headers: { origin: FOREIGN_ORIGIN, 'sec-fetch-site': 'cross-site' } });

/** Finding 3: ad activity for someone else's funded offer, generated off-site for a stream that is not live. */
export async function offSiteActivity(ctx: AttemptContext): Promise<AttemptResult> {
  // An honest advertiser's funded campaign: not the attacker's coins.
  const { advertiser, offerId } = await advertiserWithOffer(ctx, { impression: 10, click: 10, complete: 10 });
  await ctx.deposit(advertiser, 1000);
  await advertiser.client.post('/api/ads/offer-fund', { id: offerId, coins: 1000 }, key());

  const attacker = await ctx.signUp();
  const streamId = await startedStream(attacker);
  await attacker.client.post('/api/ads/update-stream-offers', { offer_ids: [offerId] });
  const pixels: string[] = [];
  for (let visitor = 0; visitor < 20; visitor += 1) {
    const vast = await (await fromElsewhere(ctx.baseUrl, `/ads/vast?${query({ stream_id: streamId })}`)).text();
    pixels.push(...[...vast.matchAll(/<!\[CDATA\[([^\]]*\/ads\/track\?[^\]]*)\]\]>/g)].map((match) => new URL(match[1]!).pathname + new URL(match[1]!).search));
    const presented = (await (await fetch(`${ctx.baseUrl}/api/ads/offer-presentation?${query({ stream_id: streamId, type: 'BANNER' })}`)).json()) as { offer?: { impression_id: string } | null };
    const id = presented.offer?.impression_id ?? `${offerId}.forged${visitor}`;
    // Out of order: the click and the completion before the impression.
    for (const activity of ['click', 'complete', 'impression']) pixels.push(`/ads/track?${query({ impression_id: id, activity })}`);
  }
  for (const pixel of pixels) await fromElsewhere(ctx.baseUrl, pixel);
  await settled();
  return { name: 'ads: activity generated off-site for a stream that is not live', coinsIn: 0, coinsOut: await ctx.coinsOf(attacker) };
}

/** Both attempts as one, for a runner that takes one `attempt` per file. */
export async function attempt(ctx: AttemptContext): Promise<AttemptResult> {
  const own = await selfPayingAdvertiser(ctx);
  const offSite = await offSiteActivity(ctx);
  return { name: `${own.name}; ${offSite.name}`, coinsIn: own.coinsIn + offSite.coinsIn, coinsOut: own.coinsOut + offSite.coinsOut };
}
