import { describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { afterTip, attemptFor, initialGate, needsPayWall, owedFromRefusal, tipClick, tipEventOf, tipFailure, tipSize } from './tip-flow';
import { sampleSender, sampleTip } from '../../../common/testing/realtime-samples';

describe('tip clicks', () => {
  it('asks to confirm until one tip is confirmed, however fast the clicks', () => {
    expect(tipClick(initialGate, 0).action).toBe('confirm');
    expect(tipClick(initialGate, 10).action).toBe('confirm');
  });

  it('then sends directly, dropping clicks within 1 s of the previous one', () => {
    let gate = { ...initialGate, confirmed: true };
    const at = (now: number) => {
      const out = tipClick(gate, now);
      gate = out.gate;
      return out.action;
    };
    expect(at(0)).toBe('send');
    expect(at(400)).toBe('ignore');
    expect(at(1300)).toBe('ignore'); // 900 ms after the dropped click: the burst goes on
    expect(at(2400)).toBe('send');
  });

  it('drops clicks while a tip is sending', () => {
    const gate = { confirmed: true, lastClickAt: 0, sending: true };
    expect(tipClick(gate, 5_000).action).toBe('ignore');
  });
});

describe('idempotency keys', () => {
  let n = 0;
  const key = () => `k${++n}`;

  it('gives each new send a fresh key', () => {
    expect(attemptFor(null, 10, key)).toEqual({ amount: 10, key: 'k1' });
    expect(attemptFor(null, 10, key).key).toBe('k2');
  });

  it('reuses the key of an unsettled send of the same amount', () => {
    const unsettled = { amount: 20, key: 'same' };
    expect(attemptFor(unsettled, 20, key)).toBe(unsettled);
    expect(attemptFor(unsettled, 100, key).key).not.toBe('same');
  });

  it("reuses it for the same action of the tip menu only: the same price for another action is another tip", () => {
    const unsettled = attemptFor(null, 50, key, 7);
    expect(attemptFor(unsettled, 50, key, 7)).toBe(unsettled);
    expect(attemptFor(unsettled, 50, key, 8).key).not.toBe(unsettled.key);
    expect(attemptFor(unsettled, 50, key).key).not.toBe(unsettled.key);
    expect(attemptFor({ amount: 50, key: 'plain' }, 50, key, 7).key).not.toBe('plain');
  });
});

describe('tip failure texts', () => {
  it('follows the catalogue, by code', () => {
    expect(tipFailure({ code: 'insufficient_funds', message: MSG.insufficientFunds })).toEqual({ kind: 'no-coins', text: MSG.notEnoughCoinsForTip });
    expect(tipFailure({ code: 'cannot_tip', message: MSG.cannotTipUser })).toEqual({ kind: 'cannot-tip', text: 'The broadcaster cannot receive tips at this time' });
    expect(tipFailure({ code: 'rate_limited', message: MSG.tipsTooFast })).toEqual({ kind: 'server', text: MSG.tipsTooFast });
    expect(tipFailure({ code: 'forbidden', message: MSG.cannotTipOwnStream })).toEqual({ kind: 'unknown', text: 'Something went wrong, fail to tip!' });
    expect(tipFailure({ code: 'network', message: MSG.loginGenericError }).kind).toBe('network');
  });

  it('never reads the text', () => {
    expect(tipFailure({ code: 'internal', message: 'Insufficient funds' }).kind).toBe('unknown');
  });
});

describe('pay wall', () => {
  const base = { tip_owed: 30, is_owner: false, skip_paywall: false };
  it('shows while coins are owed to a viewer who is not let through', () => {
    expect(needsPayWall(base)).toBe(true);
    expect(needsPayWall({ ...base, tip_owed: 0 })).toBe(false);
    expect(needsPayWall({ ...base, is_owner: true })).toBe(false);
    expect(needsPayWall({ ...base, skip_paywall: true })).toBe(false);
  });

  it('reads the owed coins from a refusal', () => {
    expect(owedFromRefusal({ tip_owed: 30 })).toBe(30);
    expect(owedFromRefusal({ tip_owed: 0 })).toBeNull();
    expect(owedFromRefusal({})).toBeNull();
  });

  it('lifts after a tip that pays', () => {
    const stream = { tip_owed: 30, has_paid: false, viewer_spend: { currency: 'CON' as const, amount: 0 } };
    expect(afterTip(stream, 30, { has_paid: true, viewer_spend: { currency: 'CON', amount: 30 } }).tip_owed).toBe(0);
    expect(afterTip(stream, 10, { has_paid: false, viewer_spend: { currency: 'CON', amount: 10 } }).tip_owed).toBe(20);
  });
});

describe('tip animations', () => {
  it('sizes by coins', () => {
    expect([5, 10, 20, 100, 200].map(tipSize)).toEqual(['small', 'small', 'small', 'medium', 'large']);
    expect(tipSize(150)).toBe('medium');
    expect(tipSize(1000)).toBe('large');
  });

  it('reads TIP messages', () => {
    expect(tipEventOf(sampleTip(100))).toEqual({ coins: 100, name: 'Ann', senderId: 1_000_001 });
    expect(tipEventOf({ ...sampleTip(5), sender: sampleSender({ name: '' }) })).toMatchObject({ name: 'Someone' });
  });
});
