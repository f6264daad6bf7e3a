/**
 * /messages (signed in; decision 0086): the member's conversations beside the open one (`?with=<user id>`),
 * or, for a creator, the panel of messages to many (`?to=many`, its code fetched when it opens). On a
 * phone it is one or the other: the list, or the pane with a way back to the list. The page hears the
 * member's own channel once for both: new messages, reads.
 */
import { Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { canGoLive, canUpload } from '../../../common/permissions';
import { lazyPage } from '../../app/lazy-page';
import { MailIcon } from '../../ui/icons';
import { EmptyState } from '../../ui/EmptyState';
import { Spinner } from '../../ui/Spinner';
import { useSession } from '../accounts';
import { parseUserId } from '../social';
import { useConversationFrames } from './api';
import { ConversationList } from './ConversationList';
import { showsMessageMany } from './paths';
import { ThreadView } from './ThreadView';
import styles from './messages.module.css';

const MessageManyPanel = lazyPage(() => import('./MessageManyPanel'), 'MessageManyPanel');

/** Creators (accounts that may go live or upload) message their followers and subscribers at once. */
const isCreator = (perms: readonly string[]) => canGoLive(perms) || canUpload(perms);

export function MessagesPage() {
  const { user } = useSession();
  const [query] = useSearchParams();
  // Behind RequireLogin: the session is there.
  if (!user) return null;
  const creator = isCreator(user.perms);
  const partnerId = parseUserId(query.get('with'));
  return <Messages me={user.user_id} creator={creator} partnerId={partnerId} many={creator && !partnerId && showsMessageMany(query)} />;
}

function Messages({ me, creator, partnerId, many }: { me: number; creator: boolean; partnerId: number | null; many: boolean }) {
  const typing = useConversationFrames(me);
  return (
    <div className={styles.layout} data-showing={partnerId || many ? 'pane' : 'list'}>
      <ConversationList partnerId={partnerId} me={me} messageMany={creator ? { open: many } : null} />
      {partnerId ? (
        // A new conversation starts fresh: no draft, scroll or report left from the previous one.
        <ThreadView key={partnerId} me={me} creator={creator} partnerId={partnerId} typingUntil={typing.get(partnerId) ?? 0} />
      ) : many ? (
        <Suspense
          fallback={
            <div className={styles.nothingOpen} aria-busy="true">
              <Spinner label="Loading" />
            </div>
          }
        >
          <MessageManyPanel me={me} />
        </Suspense>
      ) : (
        <div className={styles.nothingOpen}>
          <EmptyState icon={<MailIcon size={40} />}>Choose a conversation, or write to someone from their profile.</EmptyState>
        </div>
      )}
    </div>
  );
}
