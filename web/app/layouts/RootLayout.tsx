import { useLayoutEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { applySkin } from '../../skins/apply-skin';
import { ToastProvider } from '../../ui/Toast';
import { useSession, useSessionWatch } from '../../features/accounts/api';
import { TermsModal } from '../../features/accounts/TermsModal';
import { useSkin } from '../skin';

/** Above every layout: the skin's tokens, the session watch and the terms a signed-in user still owes. */
export function RootLayout() {
  const skin = useSkin();
  const session = useSession();
  useSessionWatch(session.isLoggedIn);
  useLayoutEffect(() => applySkin(skin), [skin]);

  const mustAcceptTerms = session.user?.terms_accepted === false;
  return (
    <ToastProvider durationMs={skin.toastMs}>
      <Outlet />
      {session.user && mustAcceptTerms && <TermsModal user={session.user} />}
      <ScrollRestoration />
    </ToastProvider>
  );
}
