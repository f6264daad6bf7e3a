import { describe, expect, it } from 'vitest';
import { createSandboxProvider, SANDBOX_CARDS } from './payment-provider';

const card = (number: string) => ({ number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 1, cvc: '123', name: 'Pat Payer' });

describe('the sandbox processor', () => {
  it('answers a charge repeated with the same reference with the charge already made (a renewal retried after a crash)', async () => {
    const sandbox = createSandboxProvider({ webhookSecret: 'test' });
    const { token } = await sandbox.tokenizeCard(card(SANDBOX_CARDS.succeeds));
    const first = await sandbox.charge({ token, amountCents: 500, currency: 'USD', reference: 'payment:41' });
    const again = await sandbox.charge({ token, amountCents: 500, currency: 'USD', reference: 'payment:41' });
    const other = await sandbox.charge({ token, amountCents: 500, currency: 'USD', reference: 'payment:42' });
    expect(first.status).toBe('succeeded');
    expect(again).toEqual(first);
    expect(other.providerRef).not.toBe(first.providerRef);
  });

  it('remembers a refusal the same way', async () => {
    const sandbox = createSandboxProvider({ webhookSecret: 'test' });
    const { token } = await sandbox.tokenizeCard(card(SANDBOX_CARDS.declined));
    const first = await sandbox.charge({ token, amountCents: 500, currency: 'USD', reference: 'payment:7' });
    expect(first.status).toBe('declined');
    expect(await sandbox.charge({ token, amountCents: 500, currency: 'USD', reference: 'payment:7' })).toEqual(first);
  });
});
