import { useState } from 'react';
import { copyText } from '../../ui/clipboard';
import { Button } from '../../ui/Button';
import { useToast } from '../../ui/Toast';
import { MSG } from '../../../common/messages';
import styles from './DashboardPage.module.css';

/** 'RTMP Feed & Stream Links': what OBS needs, each value with a copy button; the key masked. */
export function ConnectionDetails({ rtmpUrl, streamKey }: { rtmpUrl: string; streamKey: string }) {
  const [shown, setShown] = useState(false);
  return (
    <div className={styles.connection}>
      <CopyRow label="RTMP URL" value={rtmpUrl} />
      <CopyRow label="Stream key" value={streamKey} masked={!shown}>
        <Button variant="ghost" size="sm" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
          {shown ? 'Hide' : 'Show'}
        </Button>
      </CopyRow>
      <p className={styles.hint}>In OBS choose Settings → Stream → Custom, paste the URL and the key, and set the keyframe interval to 1–2 s (Settings → Output).</p>
    </div>
  );
}

function CopyRow({ label, value, masked = false, children }: { label: string; value: string; masked?: boolean; children?: React.ReactNode }) {
  const toast = useToast();
  const copy = async () => {
    const copied = await copyText(value);
    toast(copied ? { title: `${label} copied`, tone: 'success' } : { title: MSG.internal, tone: 'error' });
  };
  return (
    <div className={styles.copyRow}>
      <span className={styles.copyLabel}>{label}</span>
      <code className={styles.copyValue} aria-label={label} data-value={masked ? undefined : value}>
        {masked ? '•'.repeat(Math.min(24, value.length)) : value}
      </code>
      <div className={styles.copyActions}>
        {children}
        <Button variant="secondary" size="sm" onClick={() => void copy()} aria-label={`Copy ${label}`}>
          Copy
        </Button>
      </div>
    </div>
  );
}
