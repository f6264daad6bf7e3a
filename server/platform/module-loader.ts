/** Builds the app's modules in list order and installs what they answer (platform/module.ts). */
import type { FastifyInstance } from 'fastify';
import { createHookBoard, type HookRecord } from './hooks';
import type { OwnedJob } from './jobs/scheduler';
import type { AppModule, ModuleContext, ModuleFactory, ModuleServices, RealtimeOp, ServiceName } from './module';
import type { recordRoutes } from './http/route-table';

export interface LoadedModules {
  services: ModuleServices;
  modules: AppModule[];
  jobs: OwnedJob[];
  realtime: Array<RealtimeOp & { module: string }>;
  /** The cross-module hooks: who declares each and who fills it. */
  hooks: HookRecord[];
  /** Starts what waits for the server to listen, in list order. */
  start(): Promise<void>;
}

/** `createTipsModule` builds the module `tips`. */
const nameOf = (factory: ModuleFactory) => {
  const match = /^create(\w+)Module$/.exec(factory.name);
  if (!match) throw new Error(`a module factory is named create<Name>Module, not ${factory.name}`);
  return match[1]!.charAt(0).toLowerCase() + match[1]!.slice(1);
};

export async function loadModules(
  app: FastifyInstance,
  context: Omit<ModuleContext, 'service' | 'app' | 'hook' | 'fill'>,
  factories: readonly ModuleFactory[],
  table: ReturnType<typeof recordRoutes>,
): Promise<LoadedModules> {
  const services: Partial<ModuleServices> = {};
  const modules: AppModule[] = [];
  let building = '';
  const service = <K extends ServiceName>(name: K): ModuleServices[K] => {
    const provided = services[name];
    if (provided === undefined) throw new Error(`module "${building}" uses "${String(name)}", which no module before it in the list provides`);
    return provided as ModuleServices[K];
  };

  const hooks = createHookBoard();

  for (const factory of factories) {
    const name = nameOf(factory);
    building = name;
    const module = await table.as(name, () => factory({
      ...context, app, service,
      events: context.events.as(name),
      hook: (hook, filledBy) => hooks.declare(hook, name, filledBy),
      fill: (hook, value) => hooks.fill(hook, name, value),
    }));
    if (module.name !== building) throw new Error(`${factory.name} answers a module named "${module.name}"`);
    for (const [name, service] of Object.entries(module.services ?? {})) {
      if (name in services) throw new Error(`module "${module.name}" provides "${name}", which another module provides already`);
      (services as Record<string, unknown>)[name] = service;
    }
    modules.push(module);
  }
  hooks.assertFilled(modules.map((m) => m.name));
  for (const module of modules) await table.as(module.name, () => module.routes?.(app));
  app.addHook('onClose', async () => {
    for (const module of [...modules].reverse()) await module.stop?.();
  });

  return {
    services: services as ModuleServices,
    modules,
    jobs: modules.flatMap((m) => (m.jobs ?? []).map((job) => ({ ...job, module: m.name }))),
    realtime: modules.flatMap((m) => (m.realtime ?? []).map((op) => ({ ...op, module: m.name }))),
    hooks: hooks.list(),
    async start() {
      for (const module of modules) await module.start?.();
    },
  };
}
