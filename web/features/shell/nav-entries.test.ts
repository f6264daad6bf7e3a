import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../../../common/api/accounts';
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { SKINS } from '../../../common/skins';
import { CREATE, SIDEBAR, USER_MENU, entriesFor } from './nav-entries';

const person = (perms: readonly string[], role: 'user' | 'admin' = 'user', referral_code_id: number | null = null) =>
  ({ user_id: 42, perms, role, referral_code_id }) as unknown as SessionUser;
const labels = (entries: typeof SIDEBAR, user: SessionUser | null, skin = SKINS.limelight) =>
  entriesFor(entries, { skin, user }).map((e) => [e.label, e.path({ skin, user })]);

describe('shell menu entries', () => {
  it('offers a guest only pages that exist: Log In, Download and Browse', () => {
    expect(labels(SIDEBAR, null)).toEqual([['Log In', '/user/login'], ['Download', '/download'], ['Browse', '/channel/group']]);
    expect(labels(SIDEBAR, null, SKINS.miitv)).toEqual([['Log In', '/user/login'], ['Download', '/miitv/download'], ['Browse', '/channel/group']]);
  });

  it('gives everyone signed in their profile, saved streams and analytics, and Dashboard and Go Live only to who may go live', () => {
    const viewer = person(['CREATE STREAM_CHAT']);
    expect(labels(USER_MENU, viewer)).toEqual([
      ['My profile', '/u/42'],
      ['Saved streams', '/u/42?type=saved'],
      ['Analytics', '/user/analytics'],
      ['Wallet', '/user/account'],
      ['Subscriptions', '/subscription'],
      ['Settings', '/user/settings'],
    ]);
    expect(labels(CREATE, viewer)).toEqual([['Video Call', '/user/create-meeting']]);
    const broadcaster = person(DEFAULT_PERMISSIONS);
    expect(labels(USER_MENU, broadcaster).map(([label]) => label)).toContain('Dashboard');
    expect(labels(CREATE, broadcaster)).toEqual([['Go Live', '/dashboard'], ['Create Post', '/user/upload'], ['Video Call', '/user/create-meeting']]);
  });

  it('offers Create Post, in the side bar and the create button, to who may upload, at the skin’s upload page', () => {
    const uploader = person(['CREATE STREAM_UPLOAD_PLUS14']);
    expect(labels(SIDEBAR, uploader).map(([label]) => label)).toContain('Create Post');
    expect(labels(CREATE, uploader)).toEqual([['Create Post', '/user/upload'], ['Video Call', '/user/create-meeting']]);
    expect(labels(CREATE, uploader, SKINS.miitv)).toEqual([['Create Post', '/user/upload-video'], ['Video Call', '/user/create-meeting']]);
    expect(labels(SIDEBAR, person(['CREATE STREAM_CHAT'])).map(([label]) => label)).not.toContain('Create Post');
    expect(labels(SIDEBAR, null).map(([label]) => label)).not.toContain('Create Post');
  });

  it('offers Messages in the side bar to everyone signed in, after Video Call', () => {
    const viewer = person(['CREATE STREAM_CHAT']);
    expect(labels(SIDEBAR, viewer).slice(-2)).toEqual([['Video Call', '/user/schedule-meetings'], ['Messages', '/messages']]);
    expect(labels(SIDEBAR, null).map(([label]) => label)).not.toContain('Messages');
  });

  it('offers Video Call to everyone signed in: the calendar in the side bar, the form in the create button', () => {
    const viewer = person(['CREATE STREAM_CHAT']);
    expect(labels(SIDEBAR, viewer)).toContainEqual(['Video Call', '/user/schedule-meetings']);
    expect(labels(SIDEBAR, null).map(([label]) => label)).not.toContain('Video Call');
    expect(labels(CREATE, null)).toEqual([]);
  });

  it('offers Offers in the side bar to administrators and advertisers (CREATE AD_OFFER) only', () => {
    expect(labels(SIDEBAR, person(['CREATE AD_OFFER']))).toContainEqual(['Offers', '/ads/offers']);
    expect(labels(SIDEBAR, person([], 'admin')).map(([label]) => label)).toContain('Offers');
    expect(labels(SIDEBAR, person(DEFAULT_PERMISSIONS)).map(([label]) => label)).not.toContain('Offers');
    expect(labels(SIDEBAR, null).map(([label]) => label)).not.toContain('Offers');
  });

  it('offers Referrals in the user menu, after Analytics, to holders of the programme only: ALLOW REFERRAL_ACCESS and a first link', () => {
    const holder = person(['CREATE STREAM_CHAT', 'ALLOW REFERRAL_ACCESS'], 'user', 7);
    expect(labels(USER_MENU, holder).slice(2, 4)).toEqual([['Analytics', '/user/analytics'], ['Referrals', '/user/referral']]);
    expect(labels(USER_MENU, person(['ALLOW REFERRAL_ACCESS'])).map(([label]) => label)).not.toContain('Referrals');
    expect(labels(USER_MENU, person(DEFAULT_PERMISSIONS, 'user', 7)).map(([label]) => label)).not.toContain('Referrals');
    expect(labels(USER_MENU, person([], 'admin', 7)).map(([label]) => label)).not.toContain('Referrals');
    expect(labels(SIDEBAR, holder).map(([label]) => label)).not.toContain('Referrals');
  });

  it('offers the Console in the user menu to administrators and the three moderator permissions only', () => {
    const shows = (user: SessionUser) => labels(USER_MENU, user).some(([label, path]) => label === 'Console' && path === '/admin');
    expect(shows(person([], 'admin'))).toBe(true);
    for (const perm of ['GRANT PERMISSION', 'UPDATE STREAM_ANY', 'ALLOW REPORT_STREAM_HIDE']) expect(shows(person([...DEFAULT_PERMISSIONS, perm])), perm).toBe(true);
    expect(shows(person(DEFAULT_PERMISSIONS))).toBe(false);
    expect(shows(person(['ALLOW REFERRAL_ACCESS']))).toBe(false);
  });
});
