/**
 * Earnings and payouts (decision 0061): what a creator earned, what is still in the hold (the
 * chargeback window), what they may withdraw, their payout method, requests and automatic schedule;
 * and the operator's queue of payout requests with the bank-transfer export and import.
 */
import { z } from 'zod';
import { MSG } from '../messages';
import { defineCall, noInput, success } from './define';
import { atMost, emailField, numeric, oneOf, requiredText, wholeNumber } from './fields';

/**
 * A request is open until it is paid, rejected, failed or cancelled by its creator; one open request per
 * creator. `exported`: in a bank file; `sent`: handed to a processor's API (Stripe Connect), its answer
 * awaited. A paid transfer sent back later (by the bank, or reversed on Stripe) becomes `returned` (its
 * coins back in the wallet).
 */
export const PAYOUT_STATES = ['requested', 'approved', 'exported', 'sent', 'paid', 'rejected', 'failed', 'cancelled', 'returned'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];
/** Each state as the creator and the console name it. */
export const PAYOUT_STATE_LABELS: Record<PayoutState, string> = {
  requested: 'Requested', approved: 'Approved', exported: 'Sent to the bank', sent: 'Sent to the processor', paid: 'Paid', rejected: 'Rejected', failed: 'Failed',
  cancelled: 'Cancelled', returned: 'Returned',
};
export const OPEN_PAYOUT_STATES = ['requested', 'approved', 'exported', 'sent'] as const satisfies readonly PayoutState[];
/** How a creator is paid: a bank file (decision 0061), a Stripe Connect Express account (decision 0063) or PayPal Payouts to an email (decision 0064). */
export const PAYOUT_METHODS = ['bank_transfer', 'stripe_connect', 'paypal'] as const;
export type PayoutMethodId = (typeof PAYOUT_METHODS)[number];
export const PAYOUT_SCHEDULES = ['off', 'weekly', 'monthly'] as const;
export type PayoutSchedule = (typeof PAYOUT_SCHEDULES)[number];
/** What must be done before the first payout. */
export const PAYOUT_REQUIREMENTS = ['payout_method', 'tax_form'] as const;

const coins = z.number();

export const earnings = z.object({
  /** Earned within the hold: not withdrawable yet. */
  pending: coins,
  /** Withdrawable now. */
  available: coins,
  /** Left the platform: paid requests. */
  paid_out: coins,
  /** In an open request (held in the payouts account). */
  in_payout: coins,
  /** Everything earned, after fees. */
  earned_total: coins,
  /** The platform's fees taken on those earnings. */
  fees_taken: coins,
  minimum: coins,
  hold_seconds: z.number(),
  coins_per_usd: z.number(),
  /** When a payout can next be asked for (now, when enough is available); null when nothing is on its way. */
  next_withdraw_date: z.string().nullable(),
});
export type Earnings = z.infer<typeof earnings>;

export const payoutRequest = z.object({
  id: z.number(),
  coins,
  /** What the creator is paid, in US cents (COINS_PER_USD). */
  usd_cents: z.number(),
  method: z.enum(PAYOUT_METHODS),
  state: z.enum(PAYOUT_STATES),
  /** Why it was rejected, failed or returned by the bank. */
  reason: z.string().nullable(),
  automatic: z.boolean(),
  requested_at: z.string(),
  updated_at: z.string(),
});
export type PayoutRequest = z.infer<typeof payoutRequest>;

export const readiness = z.object({
  ready: z.boolean(),
  requirements: z.array(z.object({ key: z.enum(PAYOUT_REQUIREMENTS), done: z.boolean() })),
});
export type PayoutReadiness = z.infer<typeof readiness>;

export const payoutMethod = z.object({
  method: z.enum(PAYOUT_METHODS),
  account_holder: z.string(),
  /** The account number's last four characters; the whole number never leaves the server but in the bank export. */
  account_last4: z.string(),
  bank_name: z.string(),
  country: z.string(),
});

/** The creator's Stripe Express account as Stripe last said it: onboarded when Stripe lets it be paid out. */
export const stripeAccount = z.object({
  account: z.string(),
  details_submitted: z.boolean(),
  payouts_enabled: z.boolean(),
});

export const myEarnings = defineCall({
  method: 'GET',
  path: '/api/payouts/earnings',
  summary: 'The caller\'s earnings (pending, available, paid out), payout readiness, method, schedule, open request and history',
  input: noInput,
  output: success({
    earnings,
    readiness,
    on_hold: z.boolean(),
    method: payoutMethod.nullable(),
    /** The methods this platform offers (Stripe Connect only where Stripe is configured). */
    methods: z.array(z.enum(PAYOUT_METHODS)),
    stripe: stripeAccount.nullable(),
    schedule: z.enum(PAYOUT_SCHEDULES),
    open: payoutRequest.nullable(),
    history: z.array(payoutRequest),
  }),
});

export const savePayoutMethod = defineCall({
  method: 'POST',
  path: '/api/payouts/method',
  summary: 'Save how the caller is paid: a bank account for bank transfers',
  input: z.strictObject({
    method: z.enum(['bank_transfer'], { error: oneOf(['bank_transfer']) }),
    account_holder: requiredText(MSG.payoutAccountHolderRequired, 100),
    account_number: z.string({ error: MSG.payoutAccountNumberInvalid }).transform((v) => v.replace(/[\s-]/g, '').toUpperCase())
      .pipe(z.string().regex(/^[A-Z0-9]{6,34}$/, MSG.payoutAccountNumberInvalid)),
    bank_name: requiredText(MSG.payoutBankNameRequired, 100),
    country: requiredText(MSG.countryRequired, 64),
  }),
  output: success({ method: payoutMethod }),
});

export const startStripeOnboarding = defineCall({
  method: 'POST',
  path: '/api/payouts/stripe/onboarding',
  refusals: [404],
  summary: 'Choose Stripe for payouts: the caller\'s Stripe Express account (made once) and a link to Stripe\'s onboarding, back to the Earnings page',
  input: noInput,
  output: success({ url: z.string(), stripe: stripeAccount }),
});

export const refreshStripeAccount = defineCall({
  method: 'POST',
  path: '/api/payouts/stripe/refresh',
  refusals: [404],
  summary: 'Ask Stripe again whether the caller\'s Express account may be paid out (the return from onboarding)',
  input: noInput,
  output: success({ stripe: stripeAccount }),
});

export const choosePayPal = defineCall({
  method: 'POST',
  path: '/api/payouts/paypal',
  refusals: [404],
  summary: 'Choose PayPal for payouts: payouts are sent by PayPal Payouts to this email (the receiver); 404 while PayPal payouts are not configured',
  input: z.strictObject({ email: emailField }),
  output: success({ method: payoutMethod }),
});

export const requestPayout = defineCall({
  method: 'POST',
  path: '/api/payouts/request',
  refusals: [403, 409],
  idempotencyKey: 'required',
  summary: 'Ask for a payout of available coins: they leave the wallet for the payouts account until paid (or come back)',
  input: z.strictObject({ coins: wholeNumber(1, 100_000_000) }),
  output: success({ request: payoutRequest }),
});

const requestId = numeric(z.number({ error: MSG.payoutUnknown }).int(MSG.payoutUnknown).positive(MSG.payoutUnknown).max(Number.MAX_SAFE_INTEGER, MSG.payoutUnknown));

export const cancelPayout = defineCall({
  method: 'POST',
  path: '/api/payouts/cancel',
  refusals: [404, 409],
  summary: 'Cancel the caller\'s own payout request while it is only requested: its coins go back to the wallet (cancelling again answers the same)',
  input: z.strictObject({ id: requestId }),
  output: success({ request: payoutRequest }),
});

export const setPayoutSchedule = defineCall({
  method: 'POST',
  path: '/api/payouts/schedule',
  summary: 'Turn automatic payouts on (weekly or monthly: everything available, when above the minimum) or off',
  input: z.strictObject({ schedule: z.enum(PAYOUT_SCHEDULES, { error: oneOf(PAYOUT_SCHEDULES) }) }),
  output: success({ schedule: z.enum(PAYOUT_SCHEDULES) }),
});

const person = z.object({ user_id: z.number(), username: z.string() });

/** A request as the operator's queue shows it: the creator, their standing and their earnings. */
export const consolePayout = payoutRequest.extend({
  user: person,
  on_hold: z.boolean(),
  coins_owed: z.number(),
  open_disputes: z.number(),
  earnings: earnings.pick({ earned_total: true, paid_out: true, available: true, pending: true }),
  payee: payoutMethod.nullable(),
  batch_id: z.number().nullable(),
  /** Sent to a processor: from when an administrator may mark it failed (the processor's answer is overdue). */
  mark_failed_after: z.string().nullable(),
  /** Why an operator must look at it (the processor paid a payout already failed here); null when nothing is wrong. */
  attention: z.string().nullable(),
});
export type ConsolePayout = z.infer<typeof consolePayout>;

/** `attention`: requests an operator must look at (a processor paid one already failed here). */
export const PAYOUT_FILTERS = ['open', 'attention', ...PAYOUT_STATES] as const;

export const adminPayouts = defineCall({
  method: 'GET',
  path: '/api/admin/payouts',
  summary: 'Payout requests (administrators), oldest first, with each creator\'s earnings, holds and debts',
  input: z.strictObject({
    state: z.enum(PAYOUT_FILTERS, { error: oneOf(PAYOUT_FILTERS) }).default('open'),
    limit: numeric(z.number().int().min(1).max(200)).default(100),
  }),
  output: success({ requests: z.array(consolePayout) }),
});

export const approvePayout = defineCall({
  method: 'POST',
  path: '/api/admin/payout-approve',
  refusals: [404, 409],
  summary: 'Approve a payout request (administrators); refused while the creator is on hold',
  input: z.strictObject({ id: requestId }),
  output: success({ request: payoutRequest }),
});

export const rejectPayout = defineCall({
  method: 'POST',
  path: '/api/admin/payout-reject',
  refusals: [404, 409],
  summary: 'Reject an open payout request with a reason (administrators): its coins go back to the wallet',
  input: z.strictObject({ id: requestId, reason: requiredText(MSG.payoutReasonRequired, 300) }),
  output: success({ request: payoutRequest }),
});

export const markPayoutFailed = defineCall({
  method: 'POST',
  path: '/api/admin/payout-mark-failed',
  refusals: [404, 409],
  summary: 'Mark failed a payout sent to a processor whose answer is overdue (administrators), with a reason: its coins go back to the wallet; a later success from the processor is flagged for attention, never paid again',
  input: z.strictObject({ id: requestId, reason: requiredText(MSG.payoutReasonRequired, 300) }),
  output: success({ request: payoutRequest }),
});

export const exportPayouts = defineCall({
  method: 'POST',
  path: '/api/admin/payouts-export',
  refusals: [409],
  summary: 'Export every approved bank transfer as one CSV batch for the bank (administrators); they become exported',
  input: z.strictObject({}),
  output: success({ batch_id: z.number(), count: z.number(), total_usd_cents: z.number(), filename: z.string(), csv: z.string() }),
});

export const importPayouts = defineCall({
  method: 'POST',
  path: '/api/admin/payouts-import',
  summary: 'Import the bank\'s results (administrators): "reference,paid", "reference,failed,reason" or, for a transfer the bank sent back after it was paid, "reference,returned,reason" per line; failed and returned payouts give their coins back',
  input: z.strictObject({ csv: z.string({ error: MSG.payoutImportEmpty }).trim().min(1, MSG.payoutImportEmpty).max(1_000_000, atMost(1_000_000)) }),
  output: success({ paid: z.number(), failed: z.number(), returned: z.number(), unchanged: z.number() }),
});
