import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { renderRouteTable } from './route-table';

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

  it('is what docs/routes.md says (regenerate it with `npm run routes -- --write`)', () => {
    const documented = readFileSync(new URL('../../../docs/routes.md', import.meta.url), 'utf8');
    expect(renderRouteTable(t.app.routeTable, t.app.modules.realtime)).toBe(documented);
  });
});
