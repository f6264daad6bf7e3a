import { Suspense } from 'react';
import { Link } from 'react-router';
import { lazyPage } from '../../app/lazy-page';
import { useSkin, useSkinPath } from '../../app/skin';
import { SkinLogo } from '../../skins/SkinLogo';
import type { SessionUser } from '../../../common/api/accounts';
import { Avatar } from '../../ui/Avatar';
import { ButtonLink } from '../../ui/Button';
import { ChevronDownIcon, CoinIcon, MenuIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useSession } from '../accounts';
import { SearchForm } from './SearchForm';
import type { SidebarState } from './sidebar-state';
import { BellStandIn, loadNotificationBell } from '../notifications';
import { loadMessagesButton, MessagesStandIn } from '../messages';
import styles from './TopBar.module.css';
import menuStyles from './UserMenu.module.css';

// A guest's first visit fetches none of what only a signed-in person sees (the envelope, the bell, the balance, the menu).
const MessagesButton = lazyPage(loadMessagesButton, 'MessagesButton');
const NotificationBell = lazyPage(loadNotificationBell, 'NotificationBell');
const CoinBalance = lazyPage(() => import('./CoinBalance'), 'CoinBalance');
const UserMenu = lazyPage(() => import('./UserMenu'), 'UserMenu');

/** The full top bar; without `sidebar` it is the guest bar (logo, and Log In for a guest). */
export function TopBar({ sidebar }: { sidebar?: SidebarState }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const session = useSession();
  return (
    <header className={`${styles.topbar} ${sidebar ? styles.full : ''}`}>
      <div className={styles.start}>
        {sidebar && (
          <button
            type="button"
            className={styles.menuButton}
            onClick={sidebar.toggle}
            aria-label={sidebar.visible ? 'Hide side bar' : 'Show side bar'}
            aria-expanded={sidebar.visible}
            aria-controls="app-sidebar"
          >
            <MenuIcon />
          </button>
        )}
        <Link to={skinPath('/')} className={styles.home} aria-label={`${skin.name} home`}>
          <SkinLogo skin={skin} />
        </Link>
      </div>

      {sidebar ? (
        <>
          <SearchForm />
          <div className={styles.end}>
            {session.user && (
              <Suspense fallback={<BalanceStandIn />}>
                <CoinBalance userId={session.user.user_id} />
              </Suspense>
            )}
            <ButtonLink
              to={skinPath('/user/account/deposit-coins')}
              variant="secondary"
              icon={<CoinIcon size={18} />}
              className={styles.coins}
              aria-label={skin.labels.getCoins}
            >
              {skin.labels.getCoins}
            </ButtonLink>
            {session.isPending ? (
              <Spinner size="sm" label="Loading your account" />
            ) : session.user ? (
              <Suspense fallback={<AccountStandIn user={session.user} />}>
                <MessagesButton userId={session.user.user_id} />
                <NotificationBell userId={session.user.user_id} />
                <UserMenu user={session.user} />
              </Suspense>
            ) : (
              <GuestButtons />
            )}
          </div>
        </>
      ) : (
        // Someone signed in here is finishing sign-up (the interests step): no Log In for them.
        !session.isPending &&
        !session.isLoggedIn && (
          <div className={styles.end}>
            <ButtonLink to={skinPath('/user/login')} variant="secondary">
              Log In
            </ButtonLink>
          </div>
        )
      )}
    </header>
  );
}

function GuestButtons() {
  const skinPath = useSkinPath();
  return (
    <>
      <ButtonLink to={skinPath('/user/login')} variant="ghost" className={styles.login}>
        Log In
      </ButtonLink>
      <ButtonLink to={skinPath('/user/sign-up')} variant="primary" className={styles.signUp}>
        Sign up for Free
      </ButtonLink>
    </>
  );
}

// While the signed-in parts' code arrives, boxes of their size and look hold their place: the bar does not move.
function BalanceStandIn() {
  return (
    <span className={styles.balance} aria-hidden="true">
      <CoinIcon size={16} />
      <span className={styles.balanceSkeleton} />
    </span>
  );
}

function AccountStandIn({ user }: { user: SessionUser }) {
  return (
    <>
      <MessagesStandIn />
      <BellStandIn />
      <span className={menuStyles.trigger} aria-hidden="true">
        <Avatar name={user.username} src={user.avatar} size={30} />
        <span className={menuStyles.name}>{user.username}</span>
        <ChevronDownIcon size={16} />
      </span>
    </>
  );
}
