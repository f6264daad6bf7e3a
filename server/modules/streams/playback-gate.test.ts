/** The playback gate's kept decisions: kept only when allowed, forgotten by revocations from any instance, never kept across one. */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryBus } from '../../platform/bus/memory-bus';
import { createDomainEventHub } from '../../platform/events';
import type { Principal } from '../../platform/http/auth';
import { createPlaybackTokens } from '../../platform/media/playback-tokens';
import { createPlaybackGate, DECISION_TTL_MS } from './playback-gate';
import '../subscriptions/events';

const tokens = createPlaybackTokens('gate-test-secret');
const viewer = { userId: 7, role: 'user', perms: [], suspended: false } as unknown as Principal;
const TOKEN = tokens.sign(5, 'user:7|limelight', 600, 'session:s7');

/** A fetch from viewer 7's session s7, as the media routes hand it over. */
const fetchFromSession = (sessionId = 's7') => ({
  ip: '203.0.113.1',
  skin: 'limelight',
  headers: {},
  cookies: {},
  currentSession: async () => ({ id: sessionId, userId: 7, remember: false }),
  currentPrincipal: async () => viewer,
}) as unknown as FastifyRequest;

function gateOn(bus = createMemoryBus(), clock = { now: 1_000_000 }) {
  const events = createDomainEventHub({ error: () => {} });
  const asked = { count: 0, answer: true as boolean | Promise<boolean> };
  const gate = createPlaybackGate({
    access: { mayPlay: async () => ((asked.count += 1), asked.answer) },
    tokens,
    events,
    bus,
    now: () => clock.now,
  });
  return { gate, events, asked, clock };
}

describe('the playback gate', () => {
  it('refuses the token in another session before asking anything', async () => {
    const { gate, asked } = gateOn();
    await gate.listen();
    expect(await gate(TOKEN, 5, fetchFromSession('another'))).toBe(false);
    expect(await gate(TOKEN, 6, fetchFromSession())).toBe(false);
    expect(asked.count).toBe(0);
    expect(await gate(TOKEN, 5, fetchFromSession())).toBe(true);
  });

  it('keeps an allowed decision a few seconds, and never a refusal', async () => {
    const { gate, asked, clock } = gateOn();
    await gate.listen();
    expect(await gate(TOKEN, 5, fetchFromSession())).toBe(true);
    expect(await gate(TOKEN, 5, fetchFromSession())).toBe(true);
    expect(asked.count).toBe(1);
    clock.now += DECISION_TTL_MS;
    asked.answer = false;
    expect(await gate(TOKEN, 5, fetchFromSession())).toBe(false);
    expect(await gate(TOKEN, 5, fetchFromSession())).toBe(false);
    expect(asked.count).toBe(3);
  });

  it('forgets a viewer\'s decision when another instance revokes it over the bus', async () => {
    const bus = createMemoryBus();
    const here = gateOn(bus);
    const there = gateOn(bus);
    await Promise.all([here.gate.listen(), there.gate.listen()]);
    expect(await there.gate(TOKEN, 5, fetchFromSession())).toBe(true);
    there.asked.answer = false;
    // Another viewer's ban on the stream leaves this one's decision alone.
    await here.events.emit('stream.viewer-banned', { streamId: 5, userId: 8 });
    expect(await there.gate(TOKEN, 5, fetchFromSession())).toBe(true);
    await here.events.emit('stream.viewer-banned', { streamId: 5, userId: 7 });
    expect(await there.gate(TOKEN, 5, fetchFromSession())).toBe(false);

    // A subscription's change forgets the subscriber's decisions on every stream.
    const onSix = tokens.sign(6, 'user:7|limelight', 600, 'session:s7');
    there.asked.answer = true;
    expect(await there.gate(TOKEN, 5, fetchFromSession())).toBe(true);
    expect(await there.gate(onSix, 6, fetchFromSession())).toBe(true);
    there.asked.answer = false;
    // Handled from the event outbox (as its delivery runs it).
    await here.events.deliver('subscription.changed', { subscriptionId: 1, subscriberId: 7, creatorId: 3, reason: 'renewal-failed' });
    expect(await there.gate(TOKEN, 5, fetchFromSession())).toBe(false);
    expect(await there.gate(onSix, 6, fetchFromSession())).toBe(false);
  });

  it('does not keep a decision that was being made while access changed', async () => {
    const { gate, events, asked } = gateOn();
    await gate.listen();
    let decide: (allowed: boolean) => void = () => {};
    asked.answer = new Promise<boolean>((resolve) => (decide = resolve));
    const pending = gate(TOKEN, 5, fetchFromSession());
    await vi.waitFor(() => expect(asked.count).toBe(1));
    await events.emit('stream.access-changed', { streamId: 5 });
    decide(true);
    expect(await pending).toBe(true);
    asked.answer = false;
    expect(await gate(TOKEN, 5, fetchFromSession())).toBe(false);
  });
});
