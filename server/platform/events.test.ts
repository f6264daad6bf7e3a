import { describe, expect, it } from 'vitest';
import { createDomainEventHub } from './events';

declare module './events' {
  interface DomainEvents {
    'probe.happened': [{ n: number }];
  }
}

describe('the domain event hub', () => {
  it('runs handlers in the order they were added and resolves when all have run', async () => {
    const hub = createDomainEventHub({ error: () => {} });
    const seen: string[] = [];
    hub.on('probe.happened', async ({ n }) => {
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(`first ${n}`);
    });
    hub.on('probe.happened', ({ n }) => {
      seen.push(`second ${n}`);
    });
    await hub.emit('probe.happened', { n: 1 });
    expect(seen).toEqual(['first 1', 'second 1']);
    hub.as('probe').on('probe.happened', () => undefined);
    expect(hub.listeners()).toEqual([
      { event: 'probe.happened', module: 'platform', durable: false }, { event: 'probe.happened', module: 'platform', durable: false }, { event: 'probe.happened', module: 'probe', durable: false },
    ]);
  });

  it('logs a failing handler and still runs the others, without failing the emitter', async () => {
    const logged: object[] = [];
    const hub = createDomainEventHub({ error: (obj) => logged.push(obj) });
    const seen: number[] = [];
    hub.on('probe.happened', () => {
      throw new Error('frame not sent');
    });
    hub.on('probe.happened', ({ n }) => {
      seen.push(n);
    });
    await expect(hub.emit('probe.happened', { n: 7 })).resolves.toBeUndefined();
    expect(seen).toEqual([7]);
    expect(logged).toEqual([expect.objectContaining({ event: 'probe.happened' })]);
  });

  it('keeps immediate and durable handlers apart: emit runs the one, the outbox\'s deliver the other', async () => {
    const hub = createDomainEventHub({ error: () => {} });
    const seen: string[] = [];
    hub.on('probe.happened', ({ n }) => void seen.push(`frame ${n}`));
    hub.onDurable('probe.happened', ({ n }) => void seen.push(`notice ${n}`));
    hub.onDurable('probe.happened', () => {
      throw new Error('database down');
    });
    await hub.emit('probe.happened', { n: 1 });
    expect(seen).toEqual(['frame 1']);
    expect(await hub.deliver('probe.happened', { n: 2 })).toBe(1);
    expect(seen).toEqual(['frame 1', 'notice 2']);
    expect(hub.listeners().map((l) => l.durable)).toEqual([false, true, true]);
  });

  it('emits to no one without handlers', async () => {
    await expect(createDomainEventHub({ error: () => {} }).emit('probe.happened', { n: 0 })).resolves.toBeUndefined();
  });
});
