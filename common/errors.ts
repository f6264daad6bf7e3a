/**
 * Every error code of the envelope `{ response: <code>, message }` (docs/architecture.md §5): its HTTP status
 * and the catalogue key of its default text. The server raises errors by code; the web decides what
 * to show by code, never by reading the message.
 */
import { MSG, type Message, type MessageKey } from './messages';

export const ERRORS = {
  // Generic refusals: the message usually names the reason, `field` the input at fault.
  validation: { status: 400, message: 'invalidRequest' },
  bad_request: { status: 400, message: 'badRequest' },
  unauthorized: { status: 401, message: 'notLoggedIn' },
  forbidden: { status: 403, message: 'forbidden' },
  csrf: { status: 403, message: 'csrf' },
  not_found: { status: 404, message: 'notFound' },
  conflict: { status: 409, message: 'conflict' },
  too_large: { status: 413, message: 'tooLarge' },
  rate_limited: { status: 429, message: 'tooManyRequests' },
  /** A login for an account or from an address with many recent failures: solve a strong captcha and send it again. */
  proof_required: { status: 401, message: 'loginProofRequired' },
  internal: { status: 500, message: 'internal' },
  unavailable: { status: 503, message: 'serviceUnavailable' },
  mail_unavailable: { status: 503, message: 'mailUnavailable' },
  /** The server's disk (or its quota) is full: nothing of the upload is kept; try again later. */
  disk_full: { status: 507, message: 'diskFull' },
  translation_unavailable: { status: 502, message: 'translationUnavailable' },
  /** The toy provider (Lovense's developer API) failed or did not answer. */
  toy_service_unavailable: { status: 502, message: 'toyServiceUnavailable' },

  // Money
  insufficient_funds: { status: 402, message: 'insufficientFunds' },
  card_insufficient_funds: { status: 402, message: 'cardInsufficientFunds' },
  payment_declined: { status: 402, message: 'cardDeclined' },
  payment_provider_unavailable: { status: 502, message: 'paymentProviderUnavailable' },
  cannot_tip: { status: 403, message: 'cannotTipUser' },
  /** Debt or an open dispute (decision 0057): no spending, no withdrawal until it is settled. */
  wallet_on_hold: { status: 403, message: 'walletOnHold' },

  // Subscriptions: the spec's subscribe codes (part 2 §8) travel as `error_code` (10516, 20002).
  fund_account: { status: 402, message: 'subscribeFundAccount' },
  already_subscribed: { status: 409, message: 'alreadySubscribed' },
  plan_permission: { status: 403, message: 'planPermissionNeeded' },
  rating_too_low: { status: 403, message: 'subscribeRatingTooLow' },

  // Streams and chat
  stream_payment_required: { status: 402, message: 'tipToWatch' },
  chat_payment_required: { status: 402, message: 'chatPaymentNeeded' },
  like_limit: { status: 429, message: 'likeLimit' },
  /** Spec part 1 §4: a join answering 'block' marks the viewer blocked. */
  block: { status: 403, message: 'streamBlocked' },
  /** A realtime frame the gateway cannot read (its id answered when it has one). */
  bad_frame: { status: 400, message: 'frameNotUnderstood' },

  // Social sign-in: the spec's codes (part 2 §8), and the login page's `social_error` codes.
  USER_NOT_EXIST_YOU_CAN_CREATE: { status: 409, message: 'moreInfoNeeded' },
  ARGS_INVALID_EMAIL_EXIST_DB: { status: 409, message: 'socialEmailExists' },
  SOCIAL_FAILED: { status: 400, message: 'socialFailed' },
  FACEBOOK_EMAIL_SCOPE: { status: 400, message: 'facebookEmailScope' },
} as const satisfies Record<string, { status: number; message: MessageKey }>;

export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(ERRORS, value);

/** The default text of a code. */
export const errorMessage = (code: ErrorCode): Message => MSG[ERRORS[code].message];
