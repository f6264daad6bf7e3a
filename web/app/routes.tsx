/** The route table (spec part 1 §2), mounted once at the root and once under each skin prefix. */
import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { canGoLive, canUpload } from '../../common/permissions';
import { SKIN_IDS, SKINS } from '../../common/skins';
import { canManageOffers } from '../features/ads/offer-managers';
import { RequireAdmin, RequireLogin, RequirePermission, RequireUser } from '../features/accounts/gates';
import { LogoutPage } from '../features/accounts/LogoutPage';
import { HomePage } from '../features/shell/HomePage';
import { NotFoundPage } from '../features/system/NotFoundPage';
import { lazyPage } from './lazy-page';
import { GuestLayout } from './layouts/GuestLayout';
import { RootLayout } from './layouts/RootLayout';
import { ShellLayout } from './layouts/ShellLayout';

// Every page but the home page comes with its own code, fetched on first visit.
const LoginPage = lazyPage(() => import('../features/accounts/LoginPage'), 'LoginPage');
const ForgotPasswordPage = lazyPage(() => import('../features/accounts/recovery/ForgotPasswordPage'), 'ForgotPasswordPage');
const SignUpPage = lazyPage(() => import('../features/accounts/SignUpPage'), 'SignUpPage');
const ChannelPage = lazyPage(() => import('../features/channels/ChannelPage'), 'ChannelPage');
const SearchAllStreamsPage = lazyPage(() => import('../features/channels/SearchAllStreamsPage'), 'SearchAllStreamsPage');
const SearchPage = lazyPage(() => import('../features/channels/SearchPage'), 'SearchPage');
const OutboxPage = lazyPage(() => import('../features/mail/OutboxPage'), 'OutboxPage');
const EmailNotificationsPage = lazyPage(() => import('../features/settings/EmailNotificationsPage'), 'EmailNotificationsPage');
const SettingsPage = lazyPage(() => import('../features/settings/SettingsPage'), 'SettingsPage');
const FollowLandingPage = lazyPage(() => import('../features/social/FollowLandingPage'), 'FollowLandingPage');
const ProfilePage = lazyPage(() => import('../features/profiles/ProfilePage'), 'ProfilePage');
const DashboardPage = lazyPage(() => import('../features/streams/DashboardPage'), 'DashboardPage');
const StreamViewPage = lazyPage(() => import('../features/streams/StreamViewPage'), 'StreamViewPage');
const DownloadPage = lazyPage(() => import('../features/system/DownloadPage'), 'DownloadPage');
const LegalPage = lazyPage(() => import('../features/system/LegalPage'), 'LegalPage');
const AddCreditCardPage = lazyPage(() => import('../features/wallet/AddCreditCardPage'), 'AddCreditCardPage');
const BuyImpressionsPage = lazyPage(() => import('../features/wallet/BuyImpressionsPage'), 'BuyImpressionsPage');
const DepositCoinsPage = lazyPage(() => import('../features/wallet/DepositCoinsPage'), 'DepositCoinsPage');
const WalletPage = lazyPage(() => import('../features/wallet/WalletPage'), 'WalletPage');
const EarningsPage = lazyPage(() => import('../features/wallet/EarningsPage'), 'EarningsPage');
const SubscriptionPage = lazyPage(() => import('../features/subscriptions/SubscriptionPage'), 'SubscriptionPage');
const OfferLinkPage = lazyPage(() => import('../features/subscriptions/OfferLinkPage'), 'OfferLinkPage');
const UploadPage = lazyPage(() => import('../features/posts/UploadPage'), 'UploadPage');
const PostViewPage = lazyPage(() => import('../features/posts/PostViewPage'), 'PostViewPage');
const CreateMeetingPage = lazyPage(() => import('../features/meetings/CreateMeetingPage'), 'CreateMeetingPage');
const ScheduleMeetingsPage = lazyPage(() => import('../features/meetings/ScheduleMeetingsPage'), 'ScheduleMeetingsPage');
const MeetingRoomPage = lazyPage(() => import('../features/meetings/MeetingRoomPage'), 'MeetingRoomPage');
const OffersPage = lazyPage(() => import('../features/ads/OffersPage'), 'OffersPage');
const AnalyticsPage = lazyPage(() => import('../features/analytics/AnalyticsPage'), 'AnalyticsPage');
const TaxInfoPage = lazyPage(() => import('../features/statements/TaxInfoPage'), 'TaxInfoPage');
const StatementPage = lazyPage(() => import('../features/statements/StatementPage'), 'StatementPage');
// The page shares its chunk with the top bar bell's panel (views.ts).
const MessagesPage = lazyPage(() => import('../features/messages/MessagesPage'), 'MessagesPage');
const VaultPage = lazyPage(() => import('../features/vault/VaultPage'), 'VaultPage');
const NotificationsPage = lazyPage(async () => ({ NotificationsPage: (await import('../features/notifications/views')).NotificationsPage }), 'NotificationsPage');
const ReferralPage = lazyPage(() => import('../features/referrals/ReferralPage'), 'ReferralPage');
const ConsolePage = lazyPage(() => import('../features/console/ConsolePage'), 'ConsolePage');

/** Pages that are not built yet render Not Found, but behind the gates they will have. */
const notBuilt = <NotFoundPage />;

function signedIn(page: ReactNode, allowed?: (perms: readonly string[]) => boolean) {
  return <RequireLogin>{allowed ? <RequirePermission allowed={allowed}>{page}</RequirePermission> : page}</RequireLogin>;
}

const SIGNED_IN_PAGES = [
  'user/account/*',
];

function skinRoutes(): RouteObject[] {
  return [
    {
      element: <GuestLayout />,
      children: [
        { path: 'user/login', element: <LoginPage /> },
        { path: 'user/sign-up', element: <SignUpPage /> },
        { path: 'user/forgot-password', element: <ForgotPasswordPage /> },
        { path: 'user/notifications/follow', element: <FollowLandingPage /> },
        { path: 'user/notifications/email', element: <EmailNotificationsPage /> },
      ],
    },
    { path: 'user/logout', element: <LogoutPage /> },
    {
      element: <ShellLayout />,
      children: [
        { index: true, element: <HomePage /> },
        { path: 'dashboard', element: signedIn(<DashboardPage />, canGoLive) },
        { path: 'streams/stream-view', element: <StreamViewPage /> },
        { path: 'channel/group', element: <ChannelPage /> },
        { path: 'channel/channel', element: <ChannelPage /> },
        { path: 'channel/custom', element: <ChannelPage /> },
        { path: 'channel/channel-tab/group', element: <ChannelPage /> },
        { path: 'channel/search-all-stream', element: <SearchAllStreamsPage /> },
        // Each skin's Create Post page is its `uploadPath`; the other address leads there.
        { path: 'user/upload', element: signedIn(<UploadPage />, canUpload) },
        { path: 'user/upload-video', element: signedIn(<UploadPage />, canUpload) },
        { path: 'post/post-view', element: <PostViewPage /> },
        { path: 'user/create-meeting', element: signedIn(<CreateMeetingPage />) },
        { path: 'user/schedule-meetings', element: signedIn(<ScheduleMeetingsPage />) },
        // The room shows its own login-required wall to a guest (spec part 2 §2 screen 10).
        { path: 'streams/meeting-view', element: <MeetingRoomPage /> },
        { path: 'ads/offers', element: <RequireLogin><RequireUser allowed={canManageOffers}><OffersPage /></RequireUser></RequireLogin> },
        // The page itself tells a person outside the programme they are not eligible (spec part 1 §2).
        { path: 'user/referral', element: signedIn(<ReferralPage />) },
        ...SIGNED_IN_PAGES.map((path) => ({ path, element: signedIn(notBuilt) })),
        { path: 'subscription', element: signedIn(<SubscriptionPage />) },
        // An offer's link opens the creator's profile with the offer (decision 0089).
        { path: 'offer/:code', element: <OfferLinkPage /> },
        { path: 'user/analytics', element: signedIn(<AnalyticsPage />) },
        { path: 'user/settings', element: signedIn(<SettingsPage />) },
        { path: 'user/tax-info', element: signedIn(<TaxInfoPage />) },
        { path: 'user/statements', element: signedIn(<StatementPage />) },
        { path: 'user/notifications', element: signedIn(<NotificationsPage />) },
        { path: 'messages', element: signedIn(<MessagesPage />) },
        { path: 'vault', element: signedIn(<VaultPage />, canUpload) },
        { path: 'user/account', element: signedIn(<WalletPage />) },
        { path: 'user/account/earnings', element: signedIn(<EarningsPage />) },
        { path: 'user/account/deposit-coins', element: signedIn(<DepositCoinsPage />) },
        { path: 'user/account/buy-impressions', element: signedIn(<BuyImpressionsPage />) },
        { path: 'user/account/add-credit-card', element: signedIn(<AddCreditCardPage />) },
        { path: 'u/:id', element: <ProfilePage /> },
        { path: 'user/profile', element: <ProfilePage /> },
        { path: 'channel/search', element: <SearchPage /> },
        // The operator console shows Not Found to whoever may not use it (common/console.ts), as its calls answer 404.
        { path: 'admin', element: <ConsolePage /> },
        { path: 'dev/outbox', element: <RequireLogin><RequireAdmin><OutboxPage /></RequireAdmin></RequireLogin> },
        { path: 'legal/terms', element: <LegalPage doc="terms" /> },
        { path: 'legal/privacy', element: <LegalPage doc="privacy" /> },
        { path: 'help', element: <LegalPage doc="help" /> },
        { path: 'guidelines', element: <LegalPage doc="guidelines" /> },
        { path: 'safety', element: <LegalPage doc="safety" /> },
        { path: 'download', element: <DownloadPage /> },
        { path: '*', element: notBuilt },
      ],
    },
  ];
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      ...SKIN_IDS.filter((id) => SKINS[id].prefix).map((id) => ({ path: SKINS[id].prefix.slice(1), children: skinRoutes() })),
      ...skinRoutes(),
    ],
  },
];
