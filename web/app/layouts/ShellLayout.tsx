import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useSession } from '../../features/accounts/api';
import { Sidebar } from '../../features/shell/Sidebar';
import { useSidebarState } from '../../features/shell/sidebar-state';
import { TopBar } from '../../features/shell/TopBar';
import { lazyPage, PageSuspense } from '../lazy-page';
import styles from './layouts.module.css';

// Only signed-in people see these: a guest's first visit does not fetch them.
const CreateButton = lazyPage(() => import('../../features/shell/CreateButton'), 'CreateButton');
const SystemMessages = lazyPage(() => import('../../features/system/SystemMessages'), 'SystemMessages');

/** Top bar, side bar and (signed in) the create button (not on the stream and messages pages) and system messages around the page. */
export function ShellLayout() {
  const sidebar = useSidebarState();
  const { isLoggedIn, user } = useSession();
  // The stream page keeps its chat input and like button at the bottom of the screen, the messages page its composer: no button over them.
  const path = useLocation().pathname;
  const bottomBusy = path.endsWith('/streams/stream-view') || path.endsWith('/messages');
  return (
    <div className={styles.app}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <TopBar sidebar={sidebar} />
      <div className={styles.body}>
        <Sidebar state={sidebar} />
        <main id="main" className={styles.main} tabIndex={-1}>
          <PageSuspense>
            <Outlet />
          </PageSuspense>
        </main>
      </div>
      <Suspense fallback={null}>
        {isLoggedIn && !bottomBusy && <CreateButton />}
        {/* Not over sign-up or login, and not on top of the terms modal. */}
        {user?.terms_accepted && <SystemMessages />}
      </Suspense>
    </div>
  );
}
