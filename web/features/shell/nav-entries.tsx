/**
 * Every entry of the shell's menus: the side bar, the user menu and the create button. An entry shows
 * only to whom it applies and leads to a page that exists. A feature that gets its page adds its
 * entry here, one line each, for example:
 *   SIDEBAR:     { label: 'Video Call', path: () => '/user/schedule-meetings', icon: <VideoCallIcon />, section: 'video-call' },
 *   CREATE:      the same, with size={18} icons
 *   USER_MENU:   { label: 'Moderation', path: () => '/admin/moderation', icon: <ShieldIcon size={18} />, shows: ({ user }) => user?.role === 'admin' },
 */
import type { ReactNode } from 'react';
import type { SessionUser } from '../../../common/api/accounts';
import { MSG } from '../../../common/messages';
import { mayUseConsole } from '../../../common/console';
import { canGoLive, canUpload } from '../../../common/permissions';
import type { Skin } from '../../../common/skins';
import {
  BookmarkIcon, BroadcastIcon, ChartIcon, CompassIcon, DashboardIcon, DownloadIcon, ImageIcon, LinkIcon, LockIcon, LogInIcon, MailIcon, MegaphoneIcon, PlusSquareIcon, SettingsIcon, StarIcon,
  UsersIcon, VideoCallIcon, WalletIcon,
} from '../../ui/icons';
import { canManageOffers } from '../ads';
import { NewInvitationsBadge } from '../meetings';
import { hasReferralAccess } from '../referrals';
import type { NavSection } from './nav-active';

export interface NavContext {
  skin: Skin;
  /** Null for a guest. */
  user: SessionUser | null;
}

export interface NavEntry {
  label: string;
  /** The app path inside the skin (the skin prefix is added where it is shown). */
  path: (context: NavContext) => string;
  icon: ReactNode;
  /** The side bar highlight this entry owns. */
  section?: NavSection;
  /** Whether the entry applies to this visitor; always when absent. */
  shows?: (context: NavContext) => boolean;
  /** Something new behind the entry (a count), shown after its label in the side bar. */
  badge?: ReactNode;
}

const broadcaster = ({ user }: NavContext) => !!user && canGoLive(user.perms);
const canPost = ({ user }: NavContext) => !!user && canUpload(user.perms);
const signedIn = ({ user }: NavContext) => !!user;
const advertiser = ({ user }: NavContext) => canManageOffers(user);
const guest = ({ user }: NavContext) => !user;

export const SIDEBAR: NavEntry[] = [
  { label: 'Log In', path: () => '/user/login', icon: <LogInIcon />, shows: guest },
  { label: 'Download', path: ({ skin }) => skin.links.download, icon: <DownloadIcon />, section: 'download' },
  { label: 'Browse', path: () => '/channel/group', icon: <CompassIcon />, section: 'browse' },
  { label: MSG.createPost, path: ({ skin }) => skin.uploadPath, icon: <PlusSquareIcon />, section: 'create-post', shows: canPost },
  { label: 'Video Call', path: () => '/user/schedule-meetings', icon: <VideoCallIcon />, section: 'video-call', shows: signedIn, badge: <NewInvitationsBadge /> },
  { label: 'Messages', path: () => '/messages', icon: <MailIcon />, section: 'messages', shows: signedIn },
  { label: 'Offers', path: () => '/ads/offers', icon: <MegaphoneIcon />, section: 'offers', shows: advertiser },
];

/** The signed-in user's menu (the user is always there). */
export const USER_MENU: NavEntry[] = [
  { label: 'My profile', path: ({ user }) => `/u/${user?.user_id}`, icon: <UsersIcon size={18} /> },
  { label: 'Saved streams', path: ({ user }) => `/u/${user?.user_id}?type=saved`, icon: <BookmarkIcon size={18} /> },
  { label: 'Dashboard', path: () => '/dashboard', icon: <DashboardIcon size={18} />, shows: broadcaster },
  { label: 'Analytics', path: () => '/user/analytics', icon: <ChartIcon size={18} /> },
  { label: 'Referrals', path: () => '/user/referral', icon: <LinkIcon size={18} />, shows: ({ user }) => hasReferralAccess(user) },
  { label: 'Vault', path: () => '/vault', icon: <ImageIcon size={18} />, shows: canPost },
  { label: 'Wallet', path: () => '/user/account', icon: <WalletIcon size={18} /> },
  { label: 'Subscriptions', path: () => '/subscription', icon: <StarIcon size={18} /> },
  { label: 'Settings', path: () => '/user/settings', icon: <SettingsIcon size={18} /> },
  { label: 'Console', path: () => '/admin', icon: <LockIcon size={18} />, shows: ({ user }) => mayUseConsole(user) },
];

/** The floating create button of the signed-in shell; hidden when none applies. */
export const CREATE: NavEntry[] = [
  { label: 'Go Live', path: () => '/dashboard', icon: <BroadcastIcon size={18} />, shows: broadcaster },
  { label: MSG.createPost, path: ({ skin }) => skin.uploadPath, icon: <PlusSquareIcon size={18} />, shows: canPost },
  { label: 'Video Call', path: () => '/user/create-meeting', icon: <VideoCallIcon size={18} />, shows: signedIn },
];

export function entriesFor(entries: NavEntry[], context: NavContext): NavEntry[] {
  return entries.filter((entry) => entry.shows?.(context) ?? true);
}
