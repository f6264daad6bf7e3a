import { describe, expect, it } from 'vitest';
import { CHAT_TEXT_MAX, clientFrame, serverFrame } from './realtime';
import { SAMPLE_MESSAGES, sampleComment, sampleSender, sampleTip } from './testing/realtime-samples';

const onChannel = (message: unknown) => ({ op: 'message', channel: 'stream:7', message });
const admits = (frame: unknown) => serverFrame.safeParse(frame).success;

describe('serverFrame', () => {
  it('admits a message frame of every type, and the frames around them', () => {
    for (const message of SAMPLE_MESSAGES) expect(admits(onChannel(message)), message.type).toBe(true);
    expect(admits({ op: 'subscribed', channel: 'stream:7:priority', history: [sampleComment('a', '1'), sampleTip(20, '2')] })).toBe(true);
    expect(admits({ op: 'ack', id: 'a-1' })).toBe(true);
    expect(admits({ op: 'error', channel: 'stream:7', id: 'a-1', code: 'like_limit', message: 'You have reached the Like limit' })).toBe(true);
    expect(admits({ op: 'error', code: 'bad_frame', message: 'The frame is not understood.' })).toBe(true);
    expect(admits({ op: 'ping' })).toBe(true);
    expect(admits({ op: 'pong' })).toBe(true);
  });

  it('refuses unknown ops and types', () => {
    expect(admits({ op: 'nope' })).toBe(false);
    expect(admits(onChannel({ type: 'LOVENSE-UNKNOWN' }))).toBe(false);
    expect(admits({ channel: 'stream:7', message: sampleComment('hi') })).toBe(false);
  });

  it('refuses a message missing what its type carries', () => {
    const { sender: _sender, ...anonymous } = sampleComment('hi');
    expect(admits(onChannel(anonymous))).toBe(false);
    const { data: _data, ...tipWithoutCoins } = sampleTip(10);
    expect(admits(onChannel(tipWithoutCoins))).toBe(false);
    expect(admits(onChannel({ type: 'STREAM-OPTIONS', options: {} }))).toBe(false);
    expect(admits(onChannel({ type: 'TIP-ENFORCE' }))).toBe(false);
    expect(admits(onChannel({ type: 'BLOCKED', text: '1000001' }))).toBe(false);
    expect(admits({ op: 'ack' })).toBe(false);
    expect(admits({ op: 'error', id: 'a-1', message: 'no code' })).toBe(false);
    expect(admits({ op: 'subscribed', channel: 'stream:7' })).toBe(false);
  });

  it('refuses wrong field types and values', () => {
    expect(admits(onChannel({ ...sampleTip(10), data: { recipient_amount: '10', recipient_currency: 'CON' } }))).toBe(false);
    expect(admits(onChannel({ ...sampleTip(10), data: { recipient_amount: 0, recipient_currency: 'CON' } }))).toBe(false);
    expect(admits(onChannel({ type: 'LIKE', likes: -1, sender: sampleSender() }))).toBe(false);
    expect(admits(onChannel({ ...sampleComment('hi'), sender: sampleSender({ user_id: 'ann' as unknown as number }) }))).toBe(false);
    expect(admits(onChannel({ ...sampleComment('hi'), chatTime: 'yesterday' }))).toBe(false);
    expect(admits(onChannel({ type: 'STREAM-OPTIONS', options: { chat_enabled: 'no' } }))).toBe(false);
    expect(admits({ ...onChannel(sampleComment('hi')), channel: 'no channel' })).toBe(false);
    // The history carries chat lines only.
    expect(admits({ op: 'subscribed', channel: 'stream:7', history: [{ type: 'STREAM-END' }] })).toBe(false);
  });

  it('counts chat text in characters as people see them', () => {
    expect(admits(onChannel(sampleComment('🔥'.repeat(CHAT_TEXT_MAX))))).toBe(true);
    expect(admits(onChannel(sampleComment('x'.repeat(CHAT_TEXT_MAX + 1))))).toBe(false);
    expect(admits(onChannel(sampleComment('')))).toBe(false);
  });
});

describe('clientFrame', () => {
  const admitsClient = (frame: unknown) => clientFrame.safeParse(frame).success;

  it('admits subscriptions, heartbeats and COMMENT and LIKE sends', () => {
    expect(admitsClient({ op: 'subscribe', channel: 'stream:7' })).toBe(true);
    expect(admitsClient({ op: 'unsubscribe', channel: 'user:1000001' })).toBe(true);
    expect(admitsClient({ op: 'send', channel: 'stream:7', id: 'a-1', type: 'COMMENT', text: 'hi' })).toBe(true);
    expect(admitsClient({ op: 'send', channel: 'stream:7', id: 'a-2', type: 'LIKE', likes: 1 })).toBe(true);
    expect(admitsClient({ op: 'ping' })).toBe(true);
  });

  it('refuses sends of service types, sends without their field, and bad channels', () => {
    for (const type of ['TIP', 'STREAM-END', 'BLOCKED']) {
      expect(admitsClient({ op: 'send', channel: 'stream:7', id: 'f', type, text: 'forged' }), type).toBe(false);
    }
    expect(admitsClient({ op: 'send', channel: 'stream:7', id: 'a-1', type: 'COMMENT' })).toBe(false);
    expect(admitsClient({ op: 'send', channel: 'stream:7', id: 'a-1', type: 'LIKE', likes: 50 })).toBe(false);
    expect(admitsClient({ op: 'send', channel: 'stream:7', type: 'LIKE', likes: 1 })).toBe(false);
    expect(admitsClient({ op: 'subscribe', channel: '../etc' })).toBe(false);
  });
});
