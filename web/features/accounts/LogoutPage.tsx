import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useSkinPath } from '../../app/skin';
import { useLogout } from './api';
import { PageSpinner } from './gates';

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
    void logout
      .mutateAsync()
      .catch(() => undefined)
      .then(() => navigate(skinPath('/user/login'), { replace: true }));
  }, [logout, navigate, skinPath]);

  return <PageSpinner />;
}
