/** Pages loaded when first visited: a first visit fetches only what the page it lands on needs. */
import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { Spinner } from '../ui/Spinner';
import styles from './lazy-page.module.css';

/** `lazyPage(() => import('./X'), 'XPage')`: the named export of a page module (or of a part of the shell only some people see), loaded on first render. */
export function lazyPage<Name extends string, Props extends object>(load: () => Promise<Record<Name, ComponentType<Props>>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}

/** Where a layout renders its page: a spinner in place of the page while its code arrives, marked busy as a loading list is. */
export function PageSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className={styles.loading} aria-busy="true">
          <Spinner label="Loading the page" size="lg" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

/**
 * `lazyOnDemand(() => import('./X'), 'XDialog')`: a dialog (or any part shown when `open`) whose code loads
 * the first time it opens. Until then it renders nothing; once loaded it stays mounted, so it closes with
 * its animation and opens again at once. `fallback` shows while the code arrives (nothing by default).
 */
export function lazyOnDemand<Module, Name extends keyof Module & string>(load: () => Promise<Module>, name: Name, fallback: ReactNode = null) {
  type Props = (Module[Name] extends ComponentType<infer P> ? P : never) & { open: boolean };
  const Lazy = lazy(async () => ({ default: (await load())[name] as ComponentType<Props> }));
  function OnDemand(props: Props) {
    const [wanted, setWanted] = useState(props.open);
    if (props.open && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  OnDemand.displayName = `OnDemand(${name})`;
  return OnDemand;
}

/**
 * A control whose library loads on first use (a menu, a popover): `standIn(use)` renders the same button
 * without it, and calling `use` (on click or hover) loads `children`, which should open at once. The
 * stand-in stays in place while the code arrives, so nothing moves.
 */
export function LoadOnUse({ standIn, children }: { standIn: (use: () => void) => ReactNode; children: ReactNode }) {
  const [used, setUsed] = useState(false);
  const plain = standIn(() => setUsed(true));
  if (!used) return plain;
  return <Suspense fallback={plain}>{children}</Suspense>;
}
