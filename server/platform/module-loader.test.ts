import Fastify from 'fastify';
import { ACCESS } from './http/access';
import { describe, expect, it } from 'vitest';
import { createDomainEventHub } from './events';
import { recordRoutes } from './http/route-table';
import type { AppModule, ModuleContext, ModuleFactory } from './module';
import { loadModules } from './module-loader';

declare module './module' {
  interface ModuleServices {
    probeClock: { now(): number };
  }
}

const context = { events: createDomainEventHub({ error: () => {} }) } as unknown as Omit<ModuleContext, 'use' | 'app'>;

async function load(factories: ModuleFactory[]) {
  const app = Fastify();
  const loaded = await loadModules(app, context, factories, recordRoutes(app));
  return { app, loaded };
}

function createProbeClockModule(): AppModule {
  return { name: 'probeClock', services: { probeClock: { now: () => 42 } }, jobs: [{ name: 'tick', everyMs: 1000, run: async () => {} }] };
}

function createProbeUserModule(ctx: ModuleContext): AppModule {
  const clock = ctx.use('probeClock');
  return {
    name: 'probeUser',
    routes: (app) => {
      app.get('/probe/now', { config: { auth: 'anonymous' } }, async () => ({ now: clock.now() }));
    },
    realtime: [{ op: 'send', name: 'PROBE', auth: 'user', access: ACCESS.signedIn, handler: 'server/platform/module-loader.test.ts' }],
  };
}

describe('the module loader', () => {
  it('builds modules in order, gives each the services before it, and tags their routes', async () => {
    const { app, loaded } = await load([createProbeClockModule, createProbeUserModule]);
    expect(loaded.services.probeClock.now()).toBe(42);
    expect(loaded.jobs.map((job) => job.name)).toEqual(['tick']);
    expect(loaded.realtime).toEqual([expect.objectContaining({ name: 'PROBE', module: 'probeUser' })]);
    expect((await app.inject({ url: '/probe/now' })).json()).toEqual({ now: 42 });
    await app.close();
  });

  it('refuses a module that uses one later in the list, naming both', async () => {
    await expect(load([createProbeUserModule, createProbeClockModule])).rejects.toThrow(
      'module "probeUser" uses "probeClock", which no module before it in the list provides',
    );
  });

  it('refuses a service offered twice and a factory not named create<Name>Module', async () => {
    const createProbeTwinModule = (): AppModule => ({ name: 'probeTwin', services: { probeClock: { now: () => 0 } } });
    await expect(load([createProbeClockModule, createProbeTwinModule])).rejects.toThrow('provides "probeClock", which another module provides already');
    const misnamed = () => ({ name: 'x' });
    await expect(load([misnamed])).rejects.toThrow('a module factory is named create<Name>Module, not misnamed');
  });
});
