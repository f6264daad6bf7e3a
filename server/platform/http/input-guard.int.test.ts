/** Input that reaches the database is refused as input: NUL characters, unknown ids in foreign keys. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUserInterest } from '../../../common/api/accounts';
import { updateUserPreferences } from '../../../common/api/settings';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { nulPath } from './input-guard';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const NUL = '\u0000';

describe('text with a NUL character', () => {
  it('is refused with 400 naming the field, signed in or not, in bodies and queries', async () => {
    const login = await t.client().post('/api/user/user-login', { username: `ad${NUL}min`, password: 'whatever-it-is' });
    expect(login.status).toBe(400);
    expect(login.body).toMatchObject({ response: 'validation', message: MSG.textHasNul, field: 'username' });

    const search = await t.client().get('/api/channel/search-user', { search: `vie${NUL}wer` });
    expect(search.status).toBe(400);
    expect(search.body).toMatchObject({ response: 'validation', field: 'search' });

    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const update = await client.post('/api/user/update-user-info', { id: user.id, fullname: `Name${NUL}` });
    expect(update.status).toBe(400);
    expect(update.body).toMatchObject({ response: 'validation', message: MSG.textHasNul });
  });

  it('is found anywhere in nested input, keys included', () => {
    expect(nulPath({ a: { b: ['ok', `x${NUL}`] } })).toBe('a.b.1');
    expect(nulPath({ [`k${NUL}`]: 1 })).toBe('k');
    expect(nulPath({ a: 'fine', b: [1, true, null] })).toBeNull();
    expect(nulPath(`top${NUL}`)).toBe('body');
  });
});

describe('an id that does not exist', () => {
  it('answers 404 when an administrator names an unknown user, never 500', async () => {
    const admin = await t.given.signedIn(await t.given.user({ role: 'admin' }));
    const interests = await admin.post(addUserInterest.path, { id: 9_999_999, interest_ids: [1, 2, 3] });
    expect(interests.status).toBe(404);
    expect(interests.body).toMatchObject({ response: 'not_found' });
    const preferences = await admin.post(updateUserPreferences.path, { id: 9_999_999, params: { notify_chat: false } });
    expect(preferences.status).toBe(404);
  });
});
