/** "Unlocked by fans" (decision 0088): who paid to open the creator's paid messages, which and when, the latest first. */
import { useId } from 'react';
import { MSG } from '../../../common/messages';
import { relativeTime } from '../../../common/rules/format';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Avatar } from '../../ui/Avatar';
import { LoadMore } from '../../ui/LoadMore';
import { Spinner } from '../../ui/Spinner';
import { useMessageUnlocks } from './api';
import { firstLine } from './thread-state';
import styles from './MessageMany.module.css';

export function UnlocksList() {
  const headingId = useId();
  const list = useMessageUnlocks();
  const unlocks = list.data?.pages.flatMap((page) => page.unlocks) ?? [];
  const first = list.data?.pages[0];
  return (
    <section className={styles.sent} aria-labelledby={headingId} aria-busy={list.isPending || undefined}>
      <h3 id={headingId} className={styles.sentTitle}>
        Unlocked by fans
      </h3>
      {first && first.total > 0 && <p className={styles.quiet}>{`${first.total.toLocaleString('en-US')} ${first.total === 1 ? 'unlock' : 'unlocks'} · ${formatCoins(first.coins)}`}</p>}
      {list.isPending && <Spinner label="Loading unlocks" />}
      {list.isError && <Alert>{failureMessage(list.error)}</Alert>}
      {list.data && unlocks.length === 0 && <p className={styles.quiet}>{MSG.noUnlocksYet}</p>}
      {unlocks.length > 0 && (
        <ul className={styles.broadcasts} aria-labelledby={headingId}>
          {unlocks.map((unlock) => (
            <li key={`${unlock.message_id}-${unlock.buyer.user_id}`} className={styles.unlock}>
              {unlock.media?.thumb_url && <img src={unlock.media.thumb_url} alt="" className={styles.unlockThumb} />}
              <div>
                <p className={styles.broadcastText}>
                  <SkinLink to={`/messages?with=${unlock.buyer.user_id}`} className={styles.buyer}>
                    <Avatar name={unlock.buyer.username} src={unlock.buyer.avatar} size={20} />
                    {unlock.buyer.username}
                  </SkinLink>
                  {` unlocked ${unlock.media?.type === 'video' ? 'a video' : 'a photo'}${unlock.text ? `: ${firstLine(unlock.text)}` : ''}`}
                </p>
                <p className={styles.meta}>
                  <span>{formatCoins(unlock.price)}</span>
                  <span aria-hidden="true">·</span>
                  <time dateTime={unlock.time} title={new Date(unlock.time).toLocaleString()}>
                    {relativeTime(unlock.time)}
                  </time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      <LoadMore list={list} block />
    </section>
  );
}
