/**
 * The one shape of money coming in (decision 0036): a `deposit` transfer issues coins from the mint only
 * beside its money leg — the outside money account (cards, invoices) paying the same payment into
 * `sales` in a real currency — and with the payment's reference in its details. The wallet's card
 * deposits, the test tools and the demo all write deposits through this.
 */
import type { TransferRequest } from './service';
import { debtAccountName, type MONEY_CURRENCIES, type MONEY_IN_ACCOUNTS } from './tables';

export interface RecordedDeposit {
  userId: number;
  coins: number;
  /** What the payer paid, in cents of a real currency, and through which outside account. */
  money: { account: (typeof MONEY_IN_ACCOUNTS)[number]; currency: (typeof MONEY_CURRENCIES)[number]; cents: number };
  /** The processor's (or the invoice's) reference of the payment. */
  paymentReference: string;
  idempotencyKey: string;
  details?: Record<string, unknown>;
  bookedAt?: Date;
  /** Coins of this deposit that pay what the user owes (their debt account) instead of reaching the wallet (decision 0057). */
  debtPaid?: number;
}

export function depositTransfer(deposit: RecordedDeposit): TransferRequest {
  const { userId, coins, money } = deposit;
  const debtPaid = deposit.debtPaid ?? 0;
  if (!(coins > 0) || !(money.cents > 0)) throw new Error('a deposit issues coins against money paid in');
  if (!(debtPaid >= 0 && debtPaid <= coins)) throw new Error('a deposit pays at most its own coins of a debt');
  return {
    kind: 'deposit',
    idempotencyKey: deposit.idempotencyKey,
    toUserId: userId,
    amount: money.cents,
    currency: money.currency,
    details: { ...deposit.details, coins, payment_reference: deposit.paymentReference, ...(debtPaid > 0 ? { debt_paid: debtPaid } : {}) },
    ...(deposit.bookedAt ? { bookedAt: deposit.bookedAt } : {}),
    legs: [
      { account: { system: 'mint', currency: 'CON' }, amount: -coins },
      { account: { userId, currency: 'CON' }, amount: coins - debtPaid },
      ...(debtPaid > 0 ? [{ account: { system: debtAccountName(userId), currency: 'CON' as const }, amount: debtPaid }] : []),
      { account: { system: money.account, currency: money.currency }, amount: -money.cents },
      { account: { system: 'sales', currency: money.currency }, amount: money.cents },
    ],
  };
}
