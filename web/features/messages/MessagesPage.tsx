/**
 * /messages (signed in; decision 0086): the member's conversations beside the open one (`?with=<user id>`).
 * On a phone it is one or the other: the list, or the conversation with a way back to the list. The page
 * hears the member's own channel once for both: new messages, reads.
 */
import { useSearchParams } from 'react-router';
import { MailIcon } from '../../ui/icons';
import { EmptyState } from '../../ui/EmptyState';
import { useSession } from '../accounts';
import { parseUserId } from '../social';
import { useConversationFrames } from './api';
import { ConversationList } from './ConversationList';
import { ThreadView } from './ThreadView';
import styles from './messages.module.css';

export function MessagesPage() {
  const { user } = useSession();
  const [query] = useSearchParams();
  const partnerId = parseUserId(query.get('with'));
  // Behind RequireLogin: the session is there.
  if (!user) return null;
  return <Messages me={user.user_id} partnerId={partnerId} />;
}

function Messages({ me, partnerId }: { me: number; partnerId: number | null }) {
  const typing = useConversationFrames(me);
  return (
    <div className={styles.layout} data-showing={partnerId ? 'thread' : 'list'}>
      <ConversationList partnerId={partnerId} me={me} />
      {partnerId ? (
        // A new conversation starts fresh: no draft, scroll or report left from the previous one.
        <ThreadView key={partnerId} me={me} partnerId={partnerId} typingUntil={typing.get(partnerId) ?? 0} />
      ) : (
        <div className={styles.nothingOpen}>
          <EmptyState icon={<MailIcon size={40} />}>Choose a conversation, or write to someone from their profile.</EmptyState>
        </div>
      )}
    </div>
  );
}
