/** The spec's business constants (part 2 §9 and part 1). One place, so server and web agree. */

/** "Logged in" means a user id above this (spec part 1 §4). New ids start one above it. */
export const LOGGED_IN_MIN_USER_ID = 1_000_000;
export const FIRST_USER_ID = 1_000_001;

export const MIN_AGE = 14;
export const ADULT_AGE = 18;
export const MIN_INTERESTS = 3;
export const SEARCH_MIN_CHARS = 3;
export const SESSION_CHECK_INTERVAL_MS = 10_000;
export const DEFAULT_LOGIN_REDIRECT = '/channel/group';

/** Unread notifications are counted up to this many (the bell shows 99+ long before). */
export const UNREAD_COUNT_CAP = 1000;

export const PAGE_SIZE = {
  subscriptions: 5,
  topLists: 5,
  streams: 50,
  followers: 200,
  comments: 10,
  publicOffers: 10,
} as const;

/** Uploads go in chunks of this many bytes, one chunk (and one upload) at a time (spec part 2 §9). */
export const UPLOAD_CHUNK_BYTES = 1_000_000;
export const COINS_PER_USD = 20;
export const TIP_CHOICES = [5, 10, 20, 100, 200] as const;

export const BREAKPOINTS = { sm: 576, md: 768, lg: 992, xl: 1200 } as const;
/** The side bar hides itself below this width (spec part 1 §2 Shell). */
export const SIDEBAR_AUTO_HIDE_WIDTH = 1024;
/** Extra side bar items shown before "See More". */
export const SIDEBAR_VISIBLE_EXTRA_ITEMS = 3;
/** Followed channels the side bar lists before "Show more" (live ones come first). */
export const SIDEBAR_VISIBLE_FOLLOWED = 8;
/** How often the side bar asks again who of the followed channels is live. */
export const SIDEBAR_FOLLOWED_REFRESH_MS = 60_000;

export const TOAST_DELAY_MS = 2000;

/** Field bounds used by every schema, so a client and the server refuse the same input. */
/** A custom channel's name and how many broadcasters it lists. */
export const CUSTOM_CHANNEL = { nameMax: 40, broadcastersMax: 50 } as const;

export const LIMITS = {
  username: { min: 3, max: 30 },
  password: { min: 8, max: 128 },
  email: { max: 254 },
  fullname: { max: 100 },
  description: { max: 1000 },
  country: { max: 64 },
  token: { max: 4096 },
  captchaPayload: { max: 8192 },
  interestIdsMax: 50,
} as const;

/** Session lifetimes. Remember-me (default on) lengthens both. */
export const SESSION_TTL = {
  idleMs: 12 * 60 * 60 * 1000,
  absoluteMs: 24 * 60 * 60 * 1000,
  rememberIdleMs: 30 * 24 * 60 * 60 * 1000,
  rememberAbsoluteMs: 90 * 24 * 60 * 60 * 1000,
} as const;

/**
 * Login throttling: this many failures inside the window give 429. An address gets more room than an
 * account, since many people can share one address (offices, mobile carriers).
 */
/**
 * Failed logins inside the window after which a login for that account, or from that address, must
 * carry a strong captcha (server/platform/captcha.ts): a slower guesser, never a locked-out owner.
 */
export const LOGIN_THROTTLE = { perAccount: 5, perAddress: 50, windowMs: 15 * 60 * 1000 } as const;

/** The longest keyframe interval a broadcast should have (Twitch and most players: 2 s); above it the dashboard warns. */
export const RECOMMENDED_KEYFRAME_INTERVAL_S = 2;
/** Deleted accounts: personal data archived this long (the privacy text's 3 months), then purged. */
export const DELETED_ACCOUNT_ARCHIVE_MONTHS = 3;
/** A social-only account (no password) deletes itself only from a session this recent: it signs in again. */
export const REAUTH_WINDOW_MS = 10 * 60_000;

/** Scheduled video calls (spec part 2 §5, §9). */
export const MEETING = {
  titleMin: 3,
  titleMax: 100,
  maxInvitees: 10,
  tip: { min: 250, max: 5000, step: 10, default: 250 },
  /** How long a meeting lasts in the calendar when nothing else says (the spec gives start times only). */
  defaultMinutes: 30,
  /** The room asks whether the host is present this often. */
  hostPresenceCheckMs: 7_000,
  /** Audio and video toggles stay locked this long after a toggle. */
  toggleLockMs: 5_000,
  /** Calendar slots. */
  calendarStepMinutes: 30,
  /** Each overlay chat line stays this long; the overlay shows the last 4. */
  overlayChatMs: 5_000,
  overlayChatLines: 4,
} as const;

/** Toy-device access (spec part 2 §5, §9). */
export const TOY = {
  /** The tip a viewer pays for control, in coins: 10–2000, default 10; the slider steps by 5. */
  tip: { min: 10, max: 2000, step: 5, default: 10 },
  /** App-connection toasts wait this long and show one at a time. */
  toastDelayMs: 2_000,
  /** The app-connection status is sent again this long after a change. */
  statusResendMs: 3_000,
  /** The web's "SDK initialising" flag clears after this long. */
  sdkInitFlagMs: 3_000,
  /** Control commands one viewer may send per second (a burst of as many, refilled continuously). */
  commandsPerSecond: 25,
} as const;

/** Creator analytics and the date range selector (spec part 2 §2, §9). */
export const ANALYTICS = {
  /** The date picker's span; All time starts at the first day. */
  firstDay: '2016-01-01',
  lastDay: '2031-12-31',
} as const;

/** Advertiser offers on streams (spec part 1 §1, §4 Ads; part 2 §9). */
export const AD = {
  /** The banner shows this long after the page loaded, and only while the video plays. */
  bannerDelayMs: 5_000,
  /** A pre-roll can be skipped after this many seconds ("ads after 5 s"). */
  skipAfterSeconds: 5,
  /** Offers a broadcaster may attach to one stream. */
  maxStreamOffers: 20,
  /** Coins an offer may pay per counted activity. */
  commissionMax: 1_000,
  /** A pre-roll creative's longest running time. */
  prerollMaxSeconds: 60,
  /** Coins one funding may add to an offer's campaign. */
  fundingMax: 1_000_000,
  /** A presentation id (the API's impression_id) is good for this long after the offer was presented: the pre-roll's play, a banner clicked on the page. */
  presentationTtlSeconds: 15 * 60,
} as const;
