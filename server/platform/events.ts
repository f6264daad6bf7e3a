/**
 * Domain events: a module says what happened; other modules act on it (the shape of Immich's event map).
 * Each module declares its own events by augmenting `DomainEvents`:
 *
 *   declare module '../../platform/events' {
 *     interface DomainEvents { 'stream.ended': [{ streamId: number }] }
 *   }
 *
 * Two kinds of handler (decision 0052):
 * - `on`: run by `emit`, in the process that made the change, right after its commit. Quick and lost with
 *   that process: realtime frames and caches, whose loss a crash makes no worse.
 * - `onDurable`: run by the event outbox (`event-outbox.ts`) for events written in the change's transaction,
 *   at least once on whichever instance delivers them: what must not be lost. Such a handler must be
 *   idempotent (a key of its own), as a redelivery runs it again.
 * An event written to the outbox is also emitted after its commit when it has `on` handlers (the TIP frame
 * rides on `tip.received` at once, its notification follows from the outbox).
 *
 * Handlers run one after another in the order they were added, and `emit` resolves when all have run.
 * A failing handler is logged and the others still run: what happened has happened (a committed tip
 * must not answer an error because a realtime frame could not be sent). Crossing instances is the
 * handlers' business (the realtime gateway publishes through the bus).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each module's declaration
export interface DomainEvents {}

export type DomainEventName = keyof DomainEvents;
type Arguments<E extends DomainEventName> = DomainEvents[E] extends unknown[] ? DomainEvents[E] : never;
export type DomainEventHandler<E extends DomainEventName> = (...args: Arguments<E>) => Promise<void> | void;

export interface DomainEventHub {
  /** A handler run at once, in this process, when the event is emitted after its commit. */
  on<E extends DomainEventName>(event: E, handler: DomainEventHandler<E>): void;
  /** An idempotent handler run at least once when the event outbox delivers the event. */
  onDurable<E extends DomainEventName>(event: E, handler: DomainEventHandler<E>): void;
  /** Runs the `on` handlers. */
  emit<E extends DomainEventName>(event: E, ...args: Arguments<E>): Promise<void>;
  /** Runs the `onDurable` handlers (the event outbox), answering how many failed: it delivers again when any did. */
  deliver<E extends DomainEventName>(event: E, ...args: Arguments<E>): Promise<number>;
  /** Who listens to what, one entry per handler in the order added (docs/runtime.md lists them). */
  listeners(): Array<{ event: DomainEventName; module: string; durable: boolean }>;
  /** The same hub, its handlers put down to `module` (each module's context holds such a view). */
  as(module: string): DomainEventHub;
}

type Handler = (...args: unknown[]) => Promise<void> | void;

export function createDomainEventHub(log: { error(obj: object, msg: string): void }): DomainEventHub {
  const handlers = new Map<DomainEventName, Array<{ handler: Handler; module: string; durable: boolean }>>();

  async function run(event: DomainEventName, durable: boolean, args: unknown[]): Promise<number> {
    let failures = 0;
    for (const entry of handlers.get(event) ?? []) {
      if (entry.durable !== durable) continue;
      try {
        await entry.handler(...args);
      } catch (error) {
        failures += 1;
        log.error({ err: error, event }, 'domain event handler failed');
      }
    }
    return failures;
  }

  function view(module: string): DomainEventHub {
    const add = (event: DomainEventName, handler: Handler, durable: boolean) => handlers.set(event, [...(handlers.get(event) ?? []), { handler, module, durable }]);
    return {
      on: (event, handler) => add(event, handler as Handler, false),
      onDurable: (event, handler) => add(event, handler as Handler, true),
      async emit(event, ...args) {
        await run(event, false, args);
      },
      deliver: (event, ...args) => run(event, true, args),
      listeners: () => [...handlers].flatMap(([event, list]) => list.map((entry) => ({ event, module: entry.module, durable: entry.durable }))),
      as: view,
    };
  }
  return view('platform');
}
