import { lazy, Suspense } from 'react';
import type { ComponentProps } from 'react';
import { Spinner } from '../../ui/Spinner';
import type { HlsPlayer } from './HlsPlayer';
import styles from './HlsPlayer.module.css';

// hls.js is large; only pages that play video load it.
const LazyHlsPlayer = lazy(() => import('./HlsPlayer').then((m) => ({ default: m.HlsPlayer })));

export function Player(props: ComponentProps<typeof HlsPlayer>) {
  return (
    <Suspense
      fallback={
        <div className={styles.box} style={{ aspectRatio: '16 / 9' }}>
          <div className={styles.overlay}>
            <Spinner size="lg" label="Loading video" />
          </div>
        </div>
      }
    >
      <LazyHlsPlayer {...props} />
    </Suspense>
  );
}
