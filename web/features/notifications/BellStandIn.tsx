import { BellIcon } from '../../ui/icons';
import styles from './Bell.module.css';

/** The bell's place and look while its code arrives, so the top bar does not move. */
export function BellStandIn() {
  return (
    <span className={styles.bell} aria-hidden="true">
      <BellIcon size={22} />
    </span>
  );
}
