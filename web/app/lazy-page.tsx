/** Pages loaded when first visited: a first visit fetches only what the page it lands on needs. */
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Spinner } from '../ui/Spinner';
import styles from './lazy-page.module.css';

/** `lazyPage(() => import('./X'), 'XPage')`: the named export of a page module (or of a part of the shell only some people see), loaded on first render. */
export function lazyPage<Name extends string, Props extends object>(load: () => Promise<Record<Name, ComponentType<Props>>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}

/** Where a layout renders its page: a spinner in place of the page while its code arrives. */
export function PageSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className={styles.loading}>
          <Spinner label="Loading the page" size="lg" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}
