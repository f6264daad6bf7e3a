/**
 * A message's photo or video (decision 0088): open, it shows (a video plays); locked, its blurred tile
 * with "Unlock for N coins"; to its sender a paid one says whether it was unlocked.
 */
import { useState } from 'react';
import type { DirectMessage } from '../../../common/api/messages';
import { messages as messageCalls } from '../../../common/api/calls';
import { fill, MSG } from '../../../common/messages';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { call, isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Button } from '../../ui/Button';
import { LockIcon } from '../../ui/icons';
import { Player } from '../streams';
import { useUnlockMessage } from './api';
import styles from './MessageMedia.module.css';

export function MessageMedia({ message, me }: { message: DirectMessage; me: number }) {
  const { media } = message;
  if (!media) return null;
  const mine = message.sender_id === me;
  const what = media.type === 'video' ? 'Video' : 'Photo';
  return (
    <div className={styles.media}>
      {media.state === 'processing' && <p className={styles.pending}>{`${what} processing…`}</p>}
      {media.state === 'failed' && <p className={styles.pending}>{MSG.videoBroken}</p>}
      {media.state === 'ready' && media.url && media.type === 'image' && (
        <a href={media.url} target="_blank" rel="noreferrer" className={styles.photoLink}>
          <img src={media.url} alt={message.text || 'Photo'} className={styles.photo} width={media.width ?? undefined} height={media.height ?? undefined} />
        </a>
      )}
      {media.state === 'ready' && media.url && media.type === 'video' && <MessageVideo message={message} src={media.url} />}
      {media.state === 'ready' && !media.url && !mine && <Locked message={message} me={me} />}
      {mine && message.price > 0 && (
        <p className={styles.sale}>
          {formatCoins(message.price)} · {message.unlocked ? MSG.messageUnlocked : MSG.messageNotUnlockedYet}
        </p>
      )}
    </div>
  );
}

/** The player keeps the address it started with; a fresh one is looked up when its token runs out. */
function MessageVideo({ message, src }: { message: DirectMessage; src: string }) {
  const [first] = useState(src);
  return (
    <div className={styles.video}>
      <Player
        src={first}
        width={message.media?.width ?? null}
        height={message.media?.height ?? null}
        poster={message.media?.thumb_url ?? null}
        label={message.text ? `Video: ${message.text}` : 'Video'}
        refreshSource={async () => (await call(messageCalls.messageLookup, { message_id: message.id })).message.media?.url ?? null}
      />
    </div>
  );
}

function Locked({ message, me }: { message: DirectMessage; me: number }) {
  const unlock = useUnlockMessage(me);
  const label = fill(MSG.messageUnlockFor, { price: message.price });
  const poor = unlock.error && isApiError(unlock.error, 'insufficient_funds');
  return (
    <div className={styles.locked}>
      {message.media?.thumb_url && <img src={message.media.thumb_url} alt="" className={styles.blurred} />}
      <div className={styles.lockedOver}>
        <LockIcon size={22} />
        <Button size="sm" loading={unlock.isPending} onClick={() => unlock.mutate(message.id)}>
          {label}
        </Button>
        {unlock.error && (
          <p className={styles.error} role="alert">
            {failureMessage(unlock.error)} {poor && <SkinLink to="/user/account">Add coins</SkinLink>}
          </p>
        )}
      </div>
    </div>
  );
}
