/** Route gates (spec part 1 §6): sign-in first, then the permission the page needs. */
import type { ReactNode } from 'react';
import type { SessionUser } from '../../../common/api/accounts';
import { useLocation } from 'react-router';
import { MSG } from '../../../common/messages';
import { useSkinPath } from '../../app/skin';
import { ButtonLink } from '../../ui/Button';
import { Notice } from '../../ui/Notice';
import { BanIcon, LockIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useSession } from './api';
import styles from './gates.module.css';

export function RequireLogin({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const skinPath = useSkinPath();
  if (session.isPending) return <PageSpinner />;
  if (session.isLoggedIn) return children;
  const redirect = encodeURIComponent(location.pathname + location.search);
  return (
    <Notice
      title={MSG.loginRequired}
      art={<LockIcon size={56} />}
      actions={
        <>
          <ButtonLink to={`${skinPath('/user/login')}?redirect=${redirect}`}>Log In</ButtonLink>
          <ButtonLink to={skinPath('/user/sign-up')} variant="secondary">
            Sign up for Free
          </ButtonLink>
        </>
      }
    >
      Sign in to your account to continue.
    </Notice>
  );
}

/** Assumes a signed-in user (use inside RequireLogin); `allowed` decides from the user's permissions. */
export function RequirePermission({ allowed, children }: { allowed: (perms: readonly string[]) => boolean; children: ReactNode }) {
  const { user } = useSession();
  if (user && allowed(user.perms)) return children;
  return <NotAllowed />;
}

/** Assumes a signed-in user (use inside RequireLogin); `allowed` decides from the whole user (role and permissions). */
export function RequireUser({ allowed, children }: { allowed: (user: SessionUser) => boolean; children: ReactNode }) {
  const { user } = useSession();
  if (user && allowed(user)) return children;
  return <NotAllowed />;
}

/** Assumes a signed-in user (use inside RequireLogin): only administrators pass. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (user?.role === 'admin') return children;
  return <NotAllowed />;
}

function NotAllowed() {
  const skinPath = useSkinPath();
  return (
    <Notice title={MSG.notAllowed} art={<BanIcon size={56} />} actions={<ButtonLink to={skinPath('/')}>Go to the home page</ButtonLink>}>
      Your account does not have access to this page. If you think it should, contact support.
    </Notice>
  );
}

export function PageSpinner() {
  return (
    <div className={styles.spinner}>
      <Spinner size="lg" label="Loading" />
    </div>
  );
}
