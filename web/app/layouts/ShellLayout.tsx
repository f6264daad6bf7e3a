import { Outlet, useLocation } from 'react-router';
import { useSession } from '../../features/accounts/api';
import { CreateButton } from '../../features/shell/CreateButton';
import { Sidebar } from '../../features/shell/Sidebar';
import { useSidebarState } from '../../features/shell/sidebar-state';
import { SystemMessages } from '../../features/system/SystemMessages';
import { TopBar } from '../../features/shell/TopBar';
import { PageSuspense } from '../lazy-page';
import styles from './layouts.module.css';

/** Top bar, side bar and (signed in) the create button (not on the stream page) and system messages around the page. */
export function ShellLayout() {
  const sidebar = useSidebarState();
  const { isLoggedIn, user } = useSession();
  // The stream page keeps its chat input and like button at the bottom of the screen: no button over them.
  const onStreamPage = useLocation().pathname.endsWith('/streams/stream-view');
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
      {isLoggedIn && !onStreamPage && <CreateButton />}
      {/* Not over sign-up or login, and not on top of the terms modal. */}
      {user?.terms_accepted && <SystemMessages />}
    </div>
  );
}
