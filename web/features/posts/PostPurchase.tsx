/**
 * A paid post the viewer has not bought (spec part 1 §2 Post view): the Purchase Confirmation where
 * the media would be — the creator, how many images, the price — then Confirm Purchase. Paying shows
 * the paywall modal, and after 2 s the post opens with its media. Without the coins (402) the
 * server's words and the way to the wallet.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Post } from '../../../common/api/posts';
import { TOAST_DELAY_MS } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { useSkin, useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { CheckIcon, CoinIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { useLater } from '../../ui/use-later';
import { useSession } from '../accounts';
import { useBalance } from '../wallet';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { usePurchasePost } from './api';
import { postKeys } from '../../api/content-keys';
import { LockedPostCard } from './LockedPostCard';
import { mediaCountLabel, postPath } from './post-rules';
import styles from './PostViewPage.module.css';

type Outcome = { kind: 'fund'; message: string } | { kind: 'failed'; message: string };

export function PurchaseConfirmation({ post, onGuest }: { post: Post; onGuest: () => void }) {
  const session = useSession();
  const skin = useSkin();
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  const later = useLater();
  const queryClient = useQueryClient();
  const purchase = usePurchasePost(post.post_id);
  const balance = useBalance(session.isLoggedIn);
  // The key of the click being paid: a retry after no answer (or a server error) sends it again, so the post is paid once.
  const [key, setKey] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [paid, setPaid] = useState(false);
  const coins = balance.data?.CON;
  const discounted = post.price < post.tip_viewer_min_amount;

  const buy = () => {
    if (!session.isLoggedIn) return onGuest();
    const attempt = key ?? crypto.randomUUID();
    setKey(attempt);
    setOutcome(null);
    purchase.mutate(
      { key: attempt },
      {
        onSuccess: () => {
          setKey(null);
          setPaid(true);
          // The paywall modal shows, then the post opens with its media.
          later(() => {
            void navigate(skinPath(postPath(post.post_id)), { replace: true });
            void queryClient.invalidateQueries({ queryKey: postKeys.lookup(post.post_id) });
          }, TOAST_DELAY_MS);
        },
        onError: (error) => {
          // An answer that refuses is final for this click; no answer (or a 5xx) keeps the key for the retry.
          if (isApiError(error) && error.status >= 400 && error.status < 500) setKey(null);
          if (isApiError(error) && error.status === 402) setOutcome({ kind: 'fund', message: error.message });
          else setOutcome({ kind: 'failed', message: fill(MSG.postPurchaseFailed, { message: failureMessage(error) }) });
        },
      },
    );
  };

  return (
    <LockedPostCard post={post} title={MSG.purchaseConfirmation}>
      <dl className={styles.facts}>
        <div>
          <dt>Content</dt>
          <dd>{mediaCountLabel(post.kind, post.media_count)}</dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd>
            {formatCoins(post.price)}
            {discounted && <span className={styles.was}> {formatCoins(post.tip_viewer_min_amount)}</span>}
          </dd>
        </div>
      </dl>
      {discounted && <p className={styles.note}>Your subscription takes {formatCoins(post.tip_viewer_min_amount - post.price)} off.</p>}
      <Button size="lg" icon={<CoinIcon size={20} />} loading={purchase.isPending} onClick={buy}>
        {MSG.confirmPurchase}
      </Button>
      {session.isLoggedIn && coins !== undefined && <p className={styles.note}>Your balance: {formatCoins(coins)}</p>}
      {outcome?.kind === 'fund' && (
        <div className={styles.fund}>
          <Alert>{outcome.message}</Alert>
          <ButtonLink to={skinPath('/user/account/deposit-coins')} variant="secondary" icon={<CoinIcon size={18} />}>
            {skin.labels.getCoins}
          </ButtonLink>
        </div>
      )}
      {outcome?.kind === 'failed' && <Alert>{outcome.message}</Alert>}
      <Modal open={paid} blocking size="sm" title="Purchase complete">
        <div className={styles.paid} role="status">
          <CheckIcon size={40} />
          <strong>You bought “{post.title}”.</strong>
          <span>Opening the post…</span>
        </div>
      </Modal>
    </LockedPostCard>
  );
}
