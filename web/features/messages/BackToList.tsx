import { SkinLink } from '../../app/skin';
import { ChevronLeftIcon } from '../../ui/icons';
import { MESSAGES_PATH } from './paths';
import styles from './messages.module.css';

/** A pane's way back to the list (on a phone, where the list is not beside the conversation or the panel). */
export function BackToList() {
  return (
    <SkinLink to={MESSAGES_PATH} className={styles.back} aria-label="Back to conversations">
      <ChevronLeftIcon size={22} />
    </SkinLink>
  );
}
