/** The wallet: coin packages, deposits, balances, history, cards, impressions (spec part 1 §2, §3; part 2 §7). */
import { z } from 'zod';
import { MSG } from '../messages';
import { defineCall, noInput, success } from './define';
import { atMost, flag, oneOf, numeric } from './fields';

export const BALANCE_CURRENCIES = ['CON', 'IMP', 'USD', 'CAD'] as const;
export const balance = z.object({ CON: z.number(), IMP: z.number(), USD: z.number(), CAD: z.number() });
export type Balance = z.infer<typeof balance>;

const packageId = numeric(z.number({ error: MSG.choosePackage }).int(MSG.choosePackage).positive(MSG.choosePackage)
  .max(Number.MAX_SAFE_INTEGER, MSG.choosePackage));

export const coinPackage = z.object({
  package_id: z.number(),
  name: z.string(),
  coins: z.number(),
  /** Cents of `currency`. */
  price: z.number(),
  currency: z.enum(['USD', 'CAD']),
});

export const coinPackages = defineCall({
  method: 'GET',
  path: '/api/wallet/coin-packages',
  summary: 'The coin packages on sale, cheapest first',
  input: noInput,
  output: success({ packages: z.array(coinPackage) }),
});

/** A card as typed in: only ever passed to the payment provider, never stored. */
export const cardInput = z.strictObject({
  number: z.string({ error: MSG.cardNumberRequired }).transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^[0-9]{12,19}$/, MSG.cardNumberInvalid)),
  exp_month: numeric(z.number({ error: MSG.expiryMonthRequired }).int().min(1, MSG.expiryMonthInvalid).max(12, MSG.expiryMonthInvalid)),
  exp_year: numeric(z.number({ error: MSG.expiryYearRequired }).int().min(2000, MSG.expiryYearInvalid).max(2100, MSG.expiryYearInvalid)),
  cvc: z.string({ error: MSG.cvcRequired }).regex(/^[0-9]{3,4}$/, MSG.cvcInvalid),
  name: z.string({ error: MSG.cardNameRequired }).trim().min(1, MSG.cardNameRequired).max(100, atMost(100)),
});

export const PAYMENT_METHODS = ['card', 'paypal', 'bitcoin'] as const;
export type PaymentMethodId = (typeof PAYMENT_METHODS)[number];
export const oneOfMethods = oneOf(PAYMENT_METHODS);

export const paymentMethod = z.object({
  id: z.enum(PAYMENT_METHODS),
  /** False when this installation has no processor for it: the deposit form shows it disabled with `reason`. */
  available: z.boolean(),
  reason: z.string().nullable(),
  /** True when the payer pays on the processor's own page (Stripe Checkout): the deposit answers `checkout`, no card form. */
  checkout: z.boolean(),
});

export const paymentMethods = defineCall({
  method: 'GET',
  path: '/api/wallet/payment-methods',
  summary: 'The payment methods of this installation and whether each can take a payment now',
  input: noInput,
  output: success({ methods: z.array(paymentMethod) }),
});

/** A page of this site a payer comes back to from a processor's page (a path). */
export const returnPath = z.string().max(200).regex(/^\/([A-Za-z0-9_-][A-Za-z0-9/_-]*)?$/, MSG.invalidRequest);

/** Where the processor's page is and until when it takes the payment. */
export const checkout = z.object({ payment_id: z.number(), redirect_url: z.string(), expires_at: z.string() });

export const depositCoins = defineCall({
  method: 'POST',
  path: '/api/wallet/deposit-coins',
  refusals: [402, 403, 404, 429],
  summary: 'Buy a coin package: with a saved card (card_token) or a card typed in; settles through the ledger',
  input: z.strictObject({
    package_id: packageId,
    payment_method: z.enum(PAYMENT_METHODS, { error: oneOfMethods }),
    card_token: z.string().min(1).max(200).optional(),
    card: cardInput.optional(),
    /**
     * Buy the package again every month on this card until cancelled (card payments only; a card typed
     * in is saved for it). Cancelling is an e-mailed request to support (the Subscriptions page).
     */
    renew_monthly: flag.optional(),
    /**
     * A method paid on the processor's page: the page of this site the payer comes back to (a path; the
     * answer of deposit-result is shown there). Default: the deposit page.
     */
    return_path: returnPath.optional(),
  }),
  output: success({
    balance,
    coins: z.number(),
    /** 0 while a checkout is open (nothing credited yet). */
    transfer_id: z.number(),
    /** The recurring package this purchase started (renew_monthly), else null. */
    coin_subscription: z.object({ id: z.number(), next_renewal_date: z.string() }).nullable(),
    /** A method paid on the processor's page: send the payer to `redirect_url`; null when the payment is already settled. */
    checkout: checkout.nullable(),
  }),
});

export const DEPOSIT_STATUSES = ['pending', 'succeeded', 'declined', 'failed', 'expired'] as const;

export const paymentIdField = numeric(z.number({ error: MSG.paymentUnknown }).int(MSG.paymentUnknown).positive(MSG.paymentUnknown).max(Number.MAX_SAFE_INTEGER, MSG.paymentUnknown));

/** A payment on a processor's page as stored (after asking the processor while it is pending). */
export const depositOutcome = z.object({
  payment_id: z.number(),
  status: z.enum(DEPOSIT_STATUSES),
  coins: z.number(),
  /** Cents of `currency`. */
  amount: z.number(),
  currency: z.enum(['USD', 'CAD']),
  /** The processor's reference of the money taken, once it succeeded. */
  provider_reference: z.string().nullable(),
});

export const depositResult = defineCall({
  method: 'GET',
  path: '/api/wallet/deposit-result',
  refusals: [404],
  summary: "What became of the caller's payment on the processor's page (asks the processor while it is pending)",
  input: z.strictObject({ payment_id: paymentIdField }),
  output: success(depositOutcome.shape),
});

export const walletBalance = defineCall({
  method: 'GET',
  path: '/api/wallet/balance',
  summary: "The caller's balances: CON (coins), IMP (impressions), USD and CAD (cents)",
  input: noInput,
  output: success({ balance }),
});

/** Why a wallet is on hold (decision 0057): coins owed, disputes open. Not on hold: nothing owed, none open. */
export const walletHold = defineCall({
  method: 'GET',
  path: '/api/wallet/hold',
  summary: "Whether the caller's wallet is on hold (coins owed after a refund or a dispute, or a dispute open): it can then neither spend nor withdraw",
  input: noInput,
  output: success({
    hold: z.object({
      on_hold: z.boolean(),
      /** Coins owed: the caller's next deposits pay them first. */
      coins_owed: z.number(),
      open_disputes: z.number(),
      /** When the oldest open dispute was opened. */
      since: z.string().nullable(),
    }),
  }),
});

const person = z.object({ user_id: z.number(), username: z.string() });

/** One refund or dispute of a held account's deposit, as the console's queue lists it. */
export const heldAccountCase = z.object({
  user: person,
  /** Coins the account owes now (all its cases together). */
  user_coins_owed: z.number(),
  payment_id: z.number(),
  provider: z.string(),
  /** The processor's reference of the payment (`pi_…`), and of the refund or dispute (`re_…`, `dp_…`). */
  provider_reference: z.string(),
  case_reference: z.string(),
  reason: z.enum(['dispute', 'refund']),
  /** Cents of `currency` the bank or the refund took. */
  amount: z.number(),
  currency: z.enum(['USD', 'CAD']),
  coins_taken: z.number(),
  /** Of this case's coins, those the wallet no longer held: owed when it happened. */
  coins_short: z.number(),
  opened_at: z.string(),
  state: z.enum(['dispute_open', 'dispute_won', 'dispute_lost', 'refunded']),
});
export type HeldAccountCase = z.infer<typeof heldAccountCase>;

export const heldAccounts = defineCall({
  method: 'GET',
  path: '/api/admin/held-accounts',
  summary: 'Accounts on hold (administrators): each refund or dispute of their deposits, with what they owe, oldest account first',
  input: noInput,
  output: success({ cases: z.array(heldAccountCase) }),
});

export const consoleDeposit = z.object({
  payment_id: z.number(),
  provider: z.string(),
  provider_reference: z.string(),
  method: z.enum(['card', 'paypal', 'bitcoin']),
  status: z.enum(['pending', 'succeeded', 'declined', 'failed', 'expired']),
  coins: z.number(),
  /** Cents of `currency`: paid, and given back so far (refunds and disputes). */
  amount: z.number(),
  refunded: z.number(),
  currency: z.enum(['USD', 'CAD']),
  created_at: z.string(),
  /** Whether an administrator can refund (the rest of) it through its processor. */
  refundable: z.boolean(),
});
export type ConsoleDeposit = z.infer<typeof consoleDeposit>;

export const userDeposits = defineCall({
  method: 'GET',
  path: '/api/admin/user-deposits',
  summary: "A user's deposits by username (administrators), newest first: what each paid, what was given back, whether it can be refunded",
  refusals: [404],
  input: z.strictObject({
    username: z.string({ error: MSG.usernameRequired }).trim().min(1, MSG.usernameRequired).max(100, atMost(100)),
    limit: numeric(z.number().int().min(1).max(100)).default(50),
  }),
  output: success({ user: person.extend({ coins_owed: z.number(), on_hold: z.boolean() }), deposits: z.array(consoleDeposit) }),
});

export const TRANSFER_KIND_LABELS = {
  deposit: 'Coins bought',
  tip: 'Tip',
  post_purchase: 'Post purchase',
  subscription: 'Subscription',
  meeting_fee: 'Video call',
  toy_tip: 'Device access',
  show_minute: 'Show minute',
  message_unlock: 'Message unlocked',
  ad_commission: 'Ad commission',
  ad_funding: 'Ad campaign funded',
  ad_refund: 'Ad campaign withdrawn',
  referral_commission: 'Referral commission',
  impressions: 'Impressions bought',
  refund: 'Refund',
  payout: 'Payout',
  adjustment: 'Adjustment',
  grant: 'Coins granted',
} as const;

export const walletTransfer = z.object({
  transfer_id: z.number(),
  kind: z.enum(Object.keys(TRANSFER_KIND_LABELS) as [keyof typeof TRANSFER_KIND_LABELS, ...Array<keyof typeof TRANSFER_KIND_LABELS>]),
  /** Signed change to the caller's wallet in `currency`: negative when money left it. */
  amount: z.number(),
  currency: z.enum(BALANCE_CURRENCIES),
  /** The other user of a tip, if any. */
  counterparty: z.object({ user_id: z.number(), username: z.string() }).nullable(),
  stream_id: z.number().nullable(),
  /** Coins bought: the processor's reference of the payment (`stripe:pi_…`). */
  payment_reference: z.string().nullable(),
  created_at: z.string(),
});

export const walletTransfers = defineCall({
  method: 'GET',
  path: '/api/wallet/transfers',
  summary: "The caller's wallet history, newest first",
  input: z.strictObject({
    offset: numeric(z.number().int().min(0).max(100_000).default(0)),
    limit: numeric(z.number().int().min(1).max(50).default(20)),
  }),
  output: success({ transfers: z.array(walletTransfer), total: z.number() }),
});

export const savedCard = z.object({ card_id: z.number(), brand: z.string(), last4: z.string(), exp_month: z.number(), exp_year: z.number() });

export const addCreditCard = defineCall({
  method: 'POST',
  path: '/api/wallet/add-credit-card',
  refusals: [402, 429],
  summary: 'Save a card with the payment provider: only its token and last four digits are kept',
  input: z.strictObject({ card: cardInput }),
  output: success({ card: savedCard }),
});

export const creditCards = defineCall({
  method: 'GET',
  path: '/api/wallet/credit-cards',
  summary: "The caller's saved cards",
  input: noInput,
  output: success({ cards: z.array(savedCard) }),
});

export const impressionPackage = z.object({ package_id: z.number(), name: z.string(), price: z.number(), currency: z.literal('CON'), impressions: z.number() });

export const getImpressionBalance = defineCall({
  method: 'GET',
  path: '/api/user/get-impression-balance',
  summary: "The caller's impressions",
  input: noInput,
  output: success({ impression_balance: z.number() }),
});

export const getImpressionPackages = defineCall({
  method: 'GET',
  path: '/api/user/get-impression-packages',
  summary: 'Impression packages, fewest impressions first',
  input: noInput,
  output: success({ impression_packages: z.array(impressionPackage) }),
});

export const buyImpressionsPackage = defineCall({
  method: 'POST',
  path: '/api/user/buy-impressions-package',
  refusals: [402, 404, 409],
  idempotencyKey: 'optional',
  summary: 'Buy an impression package with coins',
  input: z.strictObject({
    id: numeric(z.number({ error: MSG.impressionPackageRequired }).int(MSG.impressionPackageRequired).positive(MSG.impressionPackageRequired)
      .max(Number.MAX_SAFE_INTEGER, MSG.impressionPackageRequired)),
  }),
  output: success({ impression_balance: z.number(), balance }),
});

export const refundPayment = defineCall({
  method: 'POST',
  path: '/api/admin/payment-refund',
  refusals: [404, 409, 502],
  summary: 'Give a card deposit back through its processor (administrators); its coins leave the wallet when the processor confirms the refund',
  input: z.strictObject({
    payment_id: numeric(z.number({ error: MSG.paymentUnknown }).int(MSG.paymentUnknown).positive(MSG.paymentUnknown).max(Number.MAX_SAFE_INTEGER, MSG.paymentUnknown)),
    /** Cents of the payment's currency; default: all that was not given back yet. */
    amount: numeric(z.number().int().positive().max(100_000_000)).optional(),
  }),
  output: success({
    /** The processor's id of the refund. */
    refund_reference: z.string(),
    status: z.enum(['succeeded', 'pending', 'failed']),
    amount: z.number(),
  }),
});
