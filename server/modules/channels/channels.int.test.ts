/** The channel selector over HTTP: the base group, a group by id, refusals. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';

interface Channel {
  id: number;
  name: string;
  type: string;
  meta: { rating: string };
  link: string;
}

let t: TestApp;
let signedIn: HttpSession;
beforeAll(async () => {
  t = await startTestApp();
  signedIn = await t.given.signedIn(await t.given.user());
});
afterAll(() => t.close());

const names = (channels: Channel[]) => channels.map((c) => c.name);

describe('the base group', () => {
  it('lists the base channels in selector order, without Following for guests and 18+ outside adult skins', async () => {
    const res = await t.client().get('/api/channel/base-group');
    expect(res.status).toBe(200);
    const channels = res.body.channels as Channel[];
    expect(names(channels)).toEqual(['Popular', 'Women', 'Men', 'Live', 'Discover']);
    expect(channels[0]).toMatchObject({ type: 'group', meta: { rating: 'G' }, link: `/channel/group?id=${channels[0]!.id}` });
    expect(channels[1]).toMatchObject({ type: 'channel', link: `/channel/channel?id=${channels[1]!.id}` });
  });

  it('adds Following for a signed-in viewer', async () => {
    const channels = (await signedIn.get('/api/channel/base-group')).body.channels as Channel[];
    expect(names(channels)).toEqual(['Popular', 'Women', 'Men', 'Live', 'Discover', 'Following']);
  });

  it('adds 18+ in a skin that shows adult content', async () => {
    const channels = (await t.client({ 'x-service': 'afterdark' }).get('/api/channel/base-group')).body.channels as Channel[];
    expect(names(channels)).toEqual(['Popular', 'Women', 'Men', 'Live', 'Discover', '18+']);
    expect(channels.at(-1)?.meta.rating).toBe('PLUS_18');
  });
});

describe('a group', () => {
  it('answers the base group and its channels without an id, and by its id', async () => {
    const base = (await t.client().get('/api/channel/base-group')).body.channels as Channel[];
    const withoutId = await t.client().get('/api/channel/group');
    expect(withoutId.status).toBe(200);
    expect(withoutId.body.group).toEqual(base[0]);
    expect(withoutId.body.channels).toEqual(base);
    const byId = await t.client().get('/api/channel/group', { id: base[0]!.id });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(withoutId.body);
  });

  it('refuses an unknown id and the id of a channel that is not a group with 404', async () => {
    const base = (await t.client().get('/api/channel/base-group')).body.channels as Channel[];
    const live = base.find((c) => c.name === 'Live')!;
    for (const id of [999_999, live.id]) {
      const res = await t.client().get('/api/channel/group', { id });
      expect(res.status, `id ${id}`).toBe(404);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('refuses bad input with 400', async () => {
    for (const query of ['?id=abc', '?id=0', '?id=-3', '?id=1.5', '?id=3000000000', '?id=1&extra=1']) {
      const res = await t.client().request('GET', `/api/channel/group${query}`);
      expect(res.status, query).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const extra = await t.client().request('GET', '/api/channel/base-group?extra=1');
    expect(extra.status).toBe(400);
  });
});
