import { Outlet } from 'react-router';
import { TopBar } from '../../features/shell/TopBar';
import { PageSuspense } from '../lazy-page';
import styles from './layouts.module.css';

/** Login, sign-up and recovery: a quiet top bar with the logo and Log In, nothing else. */
export function GuestLayout() {
  return (
    <div className={styles.app}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <TopBar />
      <main id="main" className={`${styles.main} ${styles.guest}`} tabIndex={-1}>
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
    </div>
  );
}
