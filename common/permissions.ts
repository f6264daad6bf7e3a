/** Permission strings of the spec (part 1 §6). Users carry a list of these in `perms`. */
export const PERMISSIONS = [
  'GRANT PERMISSION',
  'UPDATE STREAM_ANY',
  'ALLOW REPORT_STREAM_HIDE',
  'ALLOW CUSTOM_STREAM_CLIENT',
  'CREATE STREAM_LIVE_G',
  'CREATE STREAM_LIVE_PLUS14',
  'CREATE STREAM_LIVE_PLUS18',
  'CREATE STREAM_UPLOAD_G',
  'CREATE STREAM_UPLOAD_PLUS14',
  'CREATE STREAM_UPLOAD_PLUS18',
  'CREATE STREAM_CHAT',
  'CREATE STREAM_CHAT_G',
  'CREATE STREAM_CHAT_PLUS14',
  'CREATE STREAM_CHAT_PLUS18',
  'ALLOW REFERRAL_ACCESS',
  'CREATE PLAN',
  /** Advertisers: manage their own offers (administrators manage every one). */
  'CREATE AD_OFFER',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What a new account gets; 14+/18+, referral and moderator permissions are granted by an admin. */
export const DEFAULT_PERMISSIONS: readonly Permission[] = [
  'ALLOW CUSTOM_STREAM_CLIENT',
  'CREATE STREAM_LIVE_G',
  'CREATE STREAM_UPLOAD_G',
  'CREATE STREAM_CHAT',
  'CREATE STREAM_CHAT_G',
  'CREATE PLAN',
];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** Going live needs the custom-client permission plus one live rating permission. */
export function canGoLive(perms: readonly string[]): boolean {
  return (
    perms.includes('ALLOW CUSTOM_STREAM_CLIENT') &&
    ['CREATE STREAM_LIVE_G', 'CREATE STREAM_LIVE_PLUS14', 'CREATE STREAM_LIVE_PLUS18'].some((p) => perms.includes(p))
  );
}

export function canUpload(perms: readonly string[]): boolean {
  return ['CREATE STREAM_UPLOAD_G', 'CREATE STREAM_UPLOAD_PLUS14', 'CREATE STREAM_UPLOAD_PLUS18'].some((p) =>
    perms.includes(p),
  );
}

/** The permission that lets a user publish a post of this content rating (spec part 1 §6). */
export function uploadPermissionFor(rating: 'G' | 'PLUS_14' | 'PLUS_18'): Permission {
  return `CREATE STREAM_UPLOAD_${rating.replace('_', '')}` as Permission;
}

/** Offers are managed by administrators (every one) and advertisers holding CREATE AD_OFFER (their own). */
export const mayManageOffers = (role: string, perms: readonly string[]) => role === 'admin' || perms.includes('CREATE AD_OFFER');
