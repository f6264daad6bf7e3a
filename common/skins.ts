/** The four white-label skins (docs/architecture.md §11). Skins change tokens, names, links and flags, never layouts. */

export const SKIN_IDS = ['limelight', 'miitv', 'personas', 'afterdark'] as const;
export type SkinId = (typeof SKIN_IDS)[number];
export const DEFAULT_SKIN: SkinId = 'limelight';

export type Rating = 'G' | 'PLUS_14' | 'PLUS_18';

export interface SkinLink {
  label: string;
  href: string;
}

export interface Skin {
  id: SkinId;
  name: string;
  /** Route prefix, '' for the default skin. */
  prefix: string;
  tagline: string;
  flags: {
    adultContent: boolean;
    subscriptions: boolean;
    adSelection: boolean;
    paidChat: boolean;
    prerollAds: boolean;
    /** Viewers may watch someone else's private show at the broadcaster's lower spy price (decision 0085). */
    spyShows: boolean;
    /** Facebook sign-in replaced by the account-migration notice. */
    facebookMigrated: boolean;
  };
  defaultRating: Rating;
  labels: { getCoins: string };
  uploadPath: string;
  toastMs: number;
  tokens: Record<string, string>;
  links: {
    terms: string;
    privacy: string;
    /** The operator's own app listings; store badges show only for a configured one. */
    appStore?: string;
    playStore?: string;
    download: string;
  };
  /**
   * Extra side bar items; the first three show until "See More". Each is a page of the app (help,
   * guidelines, safety are built in) or the operator's own external address (careers, press...).
   */
  sidebarItems: SkinLink[];
  supportEmail: string;
  copyright: string;
}

const baseLinks = (prefix: string) => ({
  terms: `${prefix}/legal/terms`,
  privacy: `${prefix}/legal/privacy`,
  download: `${prefix}/download`,
});

/** The built-in help pages every skin links by default (web/public/help/*.md). */
const helpItems = (prefix: string): SkinLink[] => [
  { label: 'Help Center', href: `${prefix}/help` },
  { label: 'Community Guidelines', href: `${prefix}/guidelines` },
];

export const SKINS: Record<SkinId, Skin> = {
  limelight: {
    id: 'limelight',
    name: 'Limelight',
    prefix: '',
    tagline: 'Your audience, your rewards.',
    flags: { adultContent: false, subscriptions: true, adSelection: true, paidChat: false, prerollAds: false, spyShows: false, facebookMigrated: false },
    defaultRating: 'G',
    labels: { getCoins: 'Get Coins' },
    uploadPath: '/user/upload',
    toastMs: 2000,
    tokens: {
      '--color-accent': '#b8f02a',
      '--color-accent-strong': '#9ad40e',
      '--color-on-accent': '#111406',
      '--color-bg': '#0e0f12',
      '--color-surface': '#17191e',
      '--color-surface-2': '#20232a',
      '--color-border': '#2c3039',
      '--color-text': '#eef0f3',
      '--color-muted': '#a3a9b5',
      '--radius': '10px',
      '--font-brand': '"Trebuchet MS", system-ui, sans-serif',
    },
    links: { ...baseLinks('') },
    sidebarItems: helpItems(''),
    supportEmail: 'support@limelight.example',
    copyright: 'Limelight',
  },
  miitv: {
    id: 'miitv',
    name: 'MiiTV',
    prefix: '/miitv',
    tagline: 'Your audience, your rewards.',
    flags: { adultContent: false, subscriptions: true, adSelection: true, paidChat: false, prerollAds: false, spyShows: false, facebookMigrated: false },
    defaultRating: 'PLUS_14',
    labels: { getCoins: 'Get Coins' },
    uploadPath: '/user/upload-video',
    toastMs: 2000,
    tokens: {
      '--color-accent': '#2ec5ff',
      '--color-accent-strong': '#0aa6e6',
      '--color-on-accent': '#04131b',
      '--color-bg': '#0a1020',
      '--color-surface': '#111a30',
      '--color-surface-2': '#18233e',
      '--color-border': '#26345a',
      '--color-text': '#eaf3ff',
      '--color-muted': '#9fb2d4',
      '--radius': '4px',
      '--font-brand': '"Verdana", system-ui, sans-serif',
    },
    links: { ...baseLinks('/miitv') },
    sidebarItems: helpItems('/miitv'),
    supportEmail: 'support@miitv.example',
    copyright: 'MiiTV',
  },
  personas: {
    id: 'personas',
    name: 'Personas',
    prefix: '/personas',
    tagline: 'Your audience, your rewards.',
    flags: { adultContent: false, subscriptions: true, adSelection: false, paidChat: false, prerollAds: false, spyShows: false, facebookMigrated: true },
    defaultRating: 'G',
    labels: { getCoins: 'Fund Wallet' },
    uploadPath: '/user/upload',
    toastMs: 2000,
    tokens: {
      '--color-accent': '#a78bfa',
      '--color-accent-strong': '#8b5cf6',
      '--color-on-accent': '#140a2b',
      '--color-bg': '#15111f',
      '--color-surface': '#1e1830',
      '--color-surface-2': '#282040',
      '--color-border': '#3a2f5c',
      '--color-text': '#f3efff',
      '--color-muted': '#b7acd6',
      '--radius': '18px',
      '--font-brand': 'Georgia, "Times New Roman", serif',
    },
    links: { ...baseLinks('/personas') },
    sidebarItems: helpItems('/personas').slice(0, 1),
    supportEmail: 'support@personas.example',
    copyright: 'Personas',
  },
  afterdark: {
    id: 'afterdark',
    name: 'AfterDark',
    prefix: '/afterdark',
    tagline: 'Your audience, your rewards.',
    flags: { adultContent: true, subscriptions: true, adSelection: false, paidChat: true, prerollAds: true, spyShows: true, facebookMigrated: false },
    defaultRating: 'G',
    labels: { getCoins: 'Get Coins' },
    uploadPath: '/user/upload',
    toastMs: 5000,
    tokens: {
      '--color-accent': '#ff2d6f',
      '--color-accent-strong': '#e0104f',
      '--color-on-accent': '#16040b',
      '--color-bg': '#07060a',
      '--color-surface': '#131017',
      '--color-surface-2': '#1d1822',
      '--color-border': '#33283a',
      '--color-text': '#f7eef2',
      '--color-muted': '#b9a3af',
      '--radius': '0px',
      '--font-brand': '"Impact", "Arial Narrow", sans-serif',
    },
    links: { ...baseLinks('/afterdark') },
    sidebarItems: [...helpItems('/afterdark'), { label: 'Safety', href: '/afterdark/safety' }],
    supportEmail: 'support@afterdark.example',
    copyright: 'AfterDark',
  },
};

export function isSkinId(value: unknown): value is SkinId {
  return typeof value === 'string' && (SKIN_IDS as readonly string[]).includes(value);
}

/** The skin whose prefix starts this path ("/miitv/user/login" → miitv), else the default. */
export function skinFromPath(pathname: string): SkinId {
  const first = pathname.split('/')[1] ?? '';
  const match = SKIN_IDS.find((id) => SKINS[id].prefix === `/${first}`);
  return match ?? DEFAULT_SKIN;
}

/** The path without its skin prefix ("/miitv/user/login" → "/user/login"). */
export function stripSkinPrefix(pathname: string): string {
  const skin = SKINS[skinFromPath(pathname)];
  if (!skin.prefix) return pathname;
  const rest = pathname.slice(skin.prefix.length);
  return rest === '' ? '/' : rest;
}
