/** The side bar's count of video-call invitations the calendar has not shown yet (nothing when there are none). */
import { useSession } from '../accounts';
import { useNewInvitations } from './invitations-api';
import styles from './NewInvitationsBadge.module.css';

export function NewInvitationsBadge() {
  const { isLoggedIn } = useSession();
  const count = useNewInvitations(isLoggedIn).data ?? 0;
  if (count === 0) return null;
  return (
    <span className={styles.countBadge} aria-label={`${count} new ${count === 1 ? 'invitation' : 'invitations'}`}>
      {count > 9 ? '9+' : count}
    </span>
  );
}
