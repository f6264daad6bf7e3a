import styles from './streams.module.css';

/** LIVE while the encoder publishes, REPLAY after (spec part 1 §3 Stream info). */
export function LiveBadge({ live }: { live: boolean }) {
  return <span className={live ? styles.live : styles.replay}>{live ? 'LIVE' : 'REPLAY'}</span>;
}

export function StatusBadge({ live }: { live: boolean }) {
  return <span className={live ? styles.live : styles.notLive}>{live ? 'LIVE' : 'NOT LIVE'}</span>;
}
