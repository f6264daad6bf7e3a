import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('countries', () => {
  it('lists the ISO countries by name', async () => {
    const res = await t.client().get('/api/meta/get-countries');
    const countries = res.body.countries as Array<{ code: string; name: string }>;
    expect(countries.length).toBeGreaterThanOrEqual(249);
    expect(countries).toContainEqual({ code: 'CA', name: 'Canada' });
    const names = countries.map((c) => c.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
  });
});

describe('system messages', () => {
  it('returns the active messages of a locale and looks one up', async () => {
    await t.app.services.system.addMessage({ title: 'Maintenance', content: '<p>Tonight</p>', frequency: 'always', locale: 'en' });
    await t.app.services.system.addMessage({ title: 'Wartung', content: '<p>Heute</p>', frequency: 'once', locale: 'de' });
    const en = await t.client().get('/api/user/get-system-messages', { locale: 'en-US' });
    const messages = en.body.messages as Array<{ id: number; title: string }>;
    expect(messages.map((m) => m.title)).toEqual(['Maintenance']);
    const one = await t.client().get('/api/user/system-message-lookup', { id: messages[0]!.id });
    expect(one.body.message).toMatchObject({ title: 'Maintenance', frequency: 'always' });
    expect((await t.client().get('/api/user/system-message-lookup', { id: 987654 })).status).toBe(404);
    expect((await t.client().get('/api/user/get-system-messages', { locale: 'english!' })).status).toBe(400);
  });

  it('are read from the read cache, and a new or retired message shows at once', async () => {
    const titles = async () => ((await t.client().get('/api/user/get-system-messages', { locale: 'fr' })).body.messages as Array<{ title: string }>).map((m) => m.title);
    expect(await titles()).toEqual([]);
    const admin = await t.given.user({ role: 'admin' });
    const created = await t.app.services.system.createMessage(admin.id, { title: 'Bonjour', content: '<p>Salut</p>', frequency: 'once', locale: 'fr' });
    expect(await titles()).toEqual(['Bonjour']);
    await t.app.services.system.retireMessage(admin.id, created.id);
    expect(await titles()).toEqual([]);
  });
});

describe('base channels', () => {
  it('shows Following only to signed-in users and 18+ only in the adult skin', async () => {
    const names = async (client: ReturnType<TestApp['client']>) =>
      ((await client.get('/api/channel/base-group')).body.channels as Array<{ name: string }>).map((c) => c.name);
    expect(await names(t.client())).toEqual(['Popular', 'Women', 'Men', 'Live', 'Discover']);
    const signedIn = await t.given.signedIn(await t.given.user());
    expect(await names(signedIn)).toEqual(['Popular', 'Women', 'Men', 'Live', 'Discover', 'Following']);
    expect(await names(t.client({ 'x-service': 'afterdark' }))).toEqual(['Popular', 'Women', 'Men', 'Live', 'Discover', '18+']);
  });

  it('answers the channel group with its channels, and 404 for a channel that is not a group', async () => {
    const res = await t.client().get('/api/channel/group');
    expect(res.body.group).toMatchObject({ name: 'Popular', type: 'group' });
    expect((res.body.channels as Array<{ name: string }>).map((c) => c.name)).toEqual(['Popular', 'Women', 'Men', 'Live', 'Discover']);
    const groupId = (res.body.group as { id: number }).id;
    expect((await t.client().get('/api/channel/group', { id: groupId })).status).toBe(200);
    const women = (res.body.channels as Array<{ id: number; name: string }>).find((c) => c.name === 'Women')!;
    expect((await t.client().get('/api/channel/group', { id: women.id })).status).toBe(404);
  });

  it('takes the skin from the calling page when no header names it', async () => {
    const names = async (headers: Record<string, string>) =>
      ((await t.client(headers).get('/api/channel/base-group')).body.channels as Array<{ name: string }>).map((c) => c.name);
    expect(await names({ referer: 'http://localhost:3000/afterdark/channel/group' })).toContain('18+');
    expect(await names({ referer: 'http://localhost:3000/channel/group' })).not.toContain('18+');
    expect(await names({ referer: 'not a url' })).not.toContain('18+');
    expect(await names({ referer: 'http://localhost:3000/afterdark/x', 'x-service': 'miitv' })).not.toContain('18+');
  });
});
