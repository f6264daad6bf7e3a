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
  interface ModuleHooks {
    probeTime: () => number;
  }
}

const context = { events: createDomainEventHub({ error: () => {} }) } as unknown as Omit<ModuleContext, 'use' | 'app' | 'hook' | 'fill'>;

async function load(factories: ModuleFactory[]) {
  const app = Fastify();
  const loaded = await loadModules(app, context, factories, recordRoutes(app));
  return { app, loaded };
}

function createProbeClockModule(): AppModule {
  return { name: 'probeClock', services: { probeClock: { now: () => 42 } }, jobs: [{ name: 'tick', everyMs: 1000, roles: ['worker'], run: async () => {} }] };
}

function createProbeUserModule(ctx: ModuleContext): AppModule {
  const clock = ctx.service('probeClock');
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
    expect(loaded.jobs.map((job) => [job.name, job.module])).toEqual([['tick', 'probeClock']]);
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

  it('hands a later module\'s hook to the module that declares it, and lists who declares and fills each', async () => {
    let read: (() => () => number) | undefined;
    const createProbeDeclarerModule = (ctx: ModuleContext): AppModule => {
      read = ctx.hook('probeTime', 'probeFiller');
      return { name: 'probeDeclarer' };
    };
    const createProbeFillerModule = (ctx: ModuleContext): AppModule => {
      ctx.fill('probeTime', () => 7);
      return { name: 'probeFiller' };
    };
    const { app, loaded } = await load([createProbeDeclarerModule, createProbeFillerModule]);
    expect(read!()()).toBe(7);
    expect(loaded.hooks).toEqual([{ name: 'probeTime', declaredBy: 'probeDeclarer', filledBy: 'probeFiller', filled: true }]);
    await app.close();
  });

  it('refuses to start while a declared hook is not filled, and a hook filled by another module than declared', async () => {
    const createProbeDeclarerModule = (ctx: ModuleContext): AppModule => {
      ctx.hook('probeTime', 'probeFiller');
      return { name: 'probeDeclarer' };
    };
    const createProbeFillerModule = (): AppModule => ({ name: 'probeFiller' });
    await expect(load([createProbeDeclarerModule, createProbeFillerModule])).rejects.toThrow(
      'the hook "probeTime" of module "probeDeclarer" is to be filled by module "probeFiller", which did not fill it',
    );
    await expect(load([createProbeDeclarerModule])).rejects.toThrow('to be filled by module "probeFiller", which is not in the module list');
    const createProbeIntruderModule = (ctx: ModuleContext): AppModule => {
      ctx.fill('probeTime', () => 0);
      return { name: 'probeIntruder' };
    };
    await expect(load([createProbeDeclarerModule, createProbeIntruderModule])).rejects.toThrow(
      'module "probeIntruder" fills the hook "probeTime", which module "probeDeclarer" declares for module "probeFiller"',
    );
    await expect(load([createProbeIntruderModule])).rejects.toThrow('module "probeIntruder" fills the hook "probeTime", which no module before it declares');
  });
});
