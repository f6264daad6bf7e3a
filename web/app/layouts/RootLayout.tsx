import { Suspense, useLayoutEffect } from 'react';
import { Outlet } from 'react-router';
import { applySkin } from '../../skins/apply-skin';
import { ToastProvider } from '../../ui/Toast';
import { useSession, useSessionWatch } from '../../features/accounts/api';
import { lazyPage } from '../lazy-page';
import { useScrollRestoration } from '../scroll-restoration';
import { useSkin } from '../skin';

// Only a signed-in person who has not accepted the terms sees it.
const TermsModal = lazyPage(() => import('../../features/accounts/TermsModal'), 'TermsModal');

/** Above every layout: the skin's tokens, the session watch, scroll positions and the terms a signed-in user still owes. */
export function RootLayout() {
  const skin = useSkin();
  const session = useSession();
  useSessionWatch(session.isLoggedIn);
  useLayoutEffect(() => applySkin(skin), [skin]);
  useScrollRestoration();

  const mustAcceptTerms = session.user?.terms_accepted === false;
  return (
    <ToastProvider durationMs={skin.toastMs}>
      <Outlet />
      {session.user && mustAcceptTerms && (
        <Suspense fallback={null}>
          <TermsModal user={session.user} />
        </Suspense>
      )}
    </ToastProvider>
  );
}
