/**
 * Domain events: a module says what happened; other modules act on it in this process (the shape of
 * Immich's event map). Each module declares its own events by augmenting `DomainEvents`:
 *
 *   declare module '../../platform/events' {
 *     interface DomainEvents { 'stream.ended': [{ streamId: number }] }
 *   }
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
  on<E extends DomainEventName>(event: E, handler: DomainEventHandler<E>): void;
  emit<E extends DomainEventName>(event: E, ...args: Arguments<E>): Promise<void>;
  /** emit, answering how many handlers failed (the event outbox delivers again when any did). */
  emitCounted<E extends DomainEventName>(event: E, ...args: Arguments<E>): Promise<number>;
  /** Who listens to what, one entry per handler in the order added (docs/runtime.md lists them). */
  listeners(): Array<{ event: DomainEventName; module: string }>;
  /** The same hub, its handlers put down to `module` (each module's context holds such a view). */
  as(module: string): DomainEventHub;
}

type Handler = (...args: unknown[]) => Promise<void> | void;

export function createDomainEventHub(log: { error(obj: object, msg: string): void }): DomainEventHub {
  const handlers = new Map<DomainEventName, Array<{ handler: Handler; module: string }>>();
  async function emitCounted(event: DomainEventName, ...args: unknown[]): Promise<number> {
    let failures = 0;
    for (const { handler } of handlers.get(event) ?? []) {
      try {
        await handler(...args);
      } catch (error) {
        failures += 1;
        log.error({ err: error, event }, 'domain event handler failed');
      }
    }
    return failures;
  }
  function view(module: string): DomainEventHub {
    return {
      on(event, handler) {
        const list = handlers.get(event) ?? [];
        list.push({ handler: handler as Handler, module });
        handlers.set(event, list);
      },
      async emit(event, ...args) {
        await emitCounted(event, ...args);
      },
      emitCounted,
      listeners: () => [...handlers].flatMap(([event, list]) => list.map((entry) => ({ event, module: entry.module }))),
      as: view,
    };
  }
  return view('platform');
}
