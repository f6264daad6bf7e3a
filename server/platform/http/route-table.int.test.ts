import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { generatedDocs } from '../../generated-docs';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('the route table', () => {
  it('names a module and a handler file for every route, and an auth rule for every call', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(80);
    for (const route of t.app.routeTable) {
      expect(route.handler, `${route.method} ${route.path}`).toMatch(/^server\/.+\.ts$/);
      if (route.path.startsWith('/api/') && route.module !== 'platform') expect(route.module, route.path).not.toBe('');
    }
    const sendTip = t.app.routeTable.find((r) => r.path === '/api/streams/send-tip');
    expect(sendTip).toMatchObject({ method: 'POST', auth: 'user', module: 'tips', handler: 'server/modules/tips/routes.ts' });
    expect(t.app.modules.realtime.map((op) => `${op.op} ${op.name}`)).toContain('send COMMENT');
  });

  it('answers the paths the spec writes with a trailing slash as it writes them', async () => {
    const user = await t.given.signedInUser();
    const lookup = await t.client().get('/api/user/user-lookup/', { id: user.user.id });
    expect([lookup.status, (lookup.body.user as { user_id: number }).user_id]).toEqual([200, user.user.id]);
    expect((await user.client.get('/api/user/user-earning-details/', { id: user.user.id })).status).not.toBe(404);
    expect((await t.client().get('/api/user/user-earning-details/', { id: user.user.id })).status).toBe(401);
    expect((await t.client().get('/api/user/exo-click-tracking/', { tracking_id: 'nothing' })).status).not.toBe(404);
    expect((await t.client().get('/api/user/exo-click-tracking', { tracking_id: 'nothing' })).status)
      .toBe((await t.client().get('/api/user/exo-click-tracking/', { tracking_id: 'nothing' })).status);
  });

  it('is what docs/routes.md and docs/runtime.md say (regenerate them with `npm run routes -- --write`)', () => {
    for (const [file, text] of Object.entries(generatedDocs(t.app))) {
      expect(text, file).toBe(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8'));
    }
  });

  it('says who may call the console\'s calls, which answer 404 to anyone else', () => {
    const routes = generatedDocs(t.app)['docs/routes.md'];
    expect(routes).toContain('| GET | `/api/admin/audit-log` | admin (404 otherwise) | console |');
    expect(routes).toContain('| GET | `/api/admin/featured` | admin or UPDATE STREAM_ANY (404 otherwise) | console |');
  });
});
