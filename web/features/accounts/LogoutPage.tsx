import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useSkinPath } from '../../app/skin';
import { loadPush } from '../notifications';
import { useLogout } from './api';
import { PageSpinner } from './gates';

/**
 * A shared browser must not keep showing the last person's notifications: its push subscription is
 * dropped while the session still lets the server forget it.
 */
async function forgetPushOnThisBrowser(): Promise<void> {
  const push = await loadPush();
  if (push.pushSupported()) await push.turnPushOff().catch(() => undefined);
}

/** /user/logout: ends the session, clears cached data, then goes to the login page. */
export function LogoutPage() {
  const logout = useLogout();
  const navigate = useNavigate();
  const skinPath = useSkinPath();
  const started = useRef(false);

  useEffect(() => {
    // Strict mode runs effects twice in development; one logout is enough.
    if (started.current) return;
    started.current = true;
    void forgetPushOnThisBrowser()
      .catch(() => undefined)
      .then(() => logout.mutateAsync())
      .catch(() => undefined)
      .then(() => navigate(skinPath('/user/login'), { replace: true }));
  }, [logout, navigate, skinPath]);

  return <PageSpinner />;
}
