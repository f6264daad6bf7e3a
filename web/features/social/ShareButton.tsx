import { MSG } from '../../../common/messages';
import { copyText } from '../../ui/clipboard';
import { ShareIcon } from '../../ui/icons';
import { useToast } from '../../ui/Toast';
import styles from './social.module.css';

/** Copies a share link and says so. */
export function ShareButton({ url, label = 'Share' }: { url: string; label?: string }) {
  const toast = useToast();
  const onClick = async () => {
    const copied = await copyText(url);
    toast(copied ? { title: MSG.linkCopied, description: url, tone: 'success' } : { title: 'Copy this link', description: url });
  };
  return (
    <button type="button" className={styles.iconButton} aria-label={label} title={label} onClick={() => void onClick()}>
      <ShareIcon size={18} />
    </button>
  );
}
