/**
 * Cross-module hooks (decision 0051): what a module needs from a module built after it (the chat needs
 * the meetings' rules for `meeting:<id>` channels). The module that needs it declares the hook, naming
 * the module that fills it (`ctx.hook`); that module fills it (`ctx.fill`); once every module is built the
 * app refuses to start while a declared hook is empty, rather than answer a silent default for ever.
 * Each hook's type is declared by augmenting `ModuleHooks` (platform/module.ts).
 */
import type { HookName, ModuleHooks } from './module';

export interface HookRecord {
  name: HookName;
  declaredBy: string;
  filledBy: string;
  filled: boolean;
}

export interface HookBoard {
  /** Declares `name` for `declaredBy`, to be filled by `filledBy`; answers a reader of what fills it. */
  declare<K extends HookName>(name: K, declaredBy: string, filledBy: string): () => ModuleHooks[K];
  fill<K extends HookName>(name: K, filledBy: string, value: ModuleHooks[K]): void;
  /** Throws while a declared hook is empty; `modules`: the names of the app's modules. */
  assertFilled(modules: readonly string[]): void;
  list(): HookRecord[];
}

export function createHookBoard(): HookBoard {
  const hooks = new Map<HookName, { record: HookRecord; value?: unknown }>();
  return {
    declare(name, declaredBy, filledBy) {
      const known = hooks.get(name);
      if (known) throw new Error(`module "${declaredBy}" declares the hook "${name}", which module "${known.record.declaredBy}" declares already`);
      const entry: { record: HookRecord; value?: unknown } = { record: { name, declaredBy, filledBy, filled: false } };
      hooks.set(name, entry);
      return () => {
        if (!entry.record.filled) throw new Error(`the hook "${name}" of module "${declaredBy}" is read before module "${filledBy}" filled it`);
        return entry.value as ModuleHooks[typeof name];
      };
    },
    fill(name, filledBy, value) {
      const entry = hooks.get(name);
      if (!entry) throw new Error(`module "${filledBy}" fills the hook "${name}", which no module before it declares`);
      const { record } = entry;
      if (record.filledBy !== filledBy) throw new Error(`module "${filledBy}" fills the hook "${name}", which module "${record.declaredBy}" declares for module "${record.filledBy}"`);
      if (record.filled) throw new Error(`module "${filledBy}" fills the hook "${name}" twice`);
      entry.value = value;
      record.filled = true;
    },
    assertFilled(modules) {
      for (const { record } of hooks.values()) {
        if (record.filled) continue;
        const why = modules.includes(record.filledBy) ? 'which did not fill it' : 'which is not in the module list';
        throw new Error(`the hook "${record.name}" of module "${record.declaredBy}" is to be filled by module "${record.filledBy}", ${why}`);
      }
    },
    list: () => [...hooks.values()].map(({ record }) => ({ ...record })),
  };
}
