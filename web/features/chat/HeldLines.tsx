/** Lines the channel's filters held, waiting for a moderator (decision 0083): each approved or removed here. */
import type { HeldLine } from '../../../common/api/chat';
import { failureMessage } from '../../api/field-errors';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { useToast } from '../../ui/Toast';
import { useApproveChatLine, useDeleteChatLine } from './moderator-actions-api';
import styles from './ChatPanel.module.css';

/** Oldest first; nothing when none waits. */
export function HeldLines({ streamId, held }: { streamId: number; held: readonly HeldLine[] }) {
  const approve = useApproveChatLine();
  const remove = useDeleteChatLine();
  const toast = useToast();
  if (held.length === 0) return null;
  const onError = (error: unknown) => toast({ title: 'That message could not be handled.', description: failureMessage(error), tone: 'error' });
  return (
    <section className={styles.held} aria-label="Held for review">
      <h3 className={styles.heldTitle}>Held for review ({held.length})</h3>
      <ul className={styles.heldList}>
        {held.map(({ line }) => {
          const input = { stream_id: streamId, timetoken: line.timetoken };
          return (
            <li key={line.timetoken} className={styles.heldLine}>
              <Avatar name={line.sender.name} src={line.sender.avatar} size={24} />
              <span className={styles.heldText}>
                <strong>{line.sender.name || 'Someone'}</strong> {line.text}
              </span>
              <div className={styles.heldActions}>
                <Button size="sm" onClick={() => approve.mutate(input, { onError })} aria-label={`Approve: ${line.text}`}>Approve</Button>
                <Button size="sm" variant="secondary" onClick={() => remove.mutate(input, { onError })} aria-label={`Remove: ${line.text}`}>Remove</Button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

