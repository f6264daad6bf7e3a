/** The tip confirm dialog ('{n} Coins', Close, Confirm Tip) and the 'Tip Sending Failure' modal (spec part 1 §2, part 2 §8). */
import { useSkinPath } from '../../app/skin';
import { Button, buttonClass } from '../../ui/Button';
import { CoinIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { SkinLink } from '../../app/skin';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { MSG } from '../../../common/messages';
import type { TipFailure } from './tip-flow';
import styles from './tips.module.css';

interface ConfirmProps {
  amount: number | null;
  /** The message going with the tip, shown as it will be sent. */
  message?: string | undefined;
  /** The action of the tip menu the tip buys. */
  item?: string | undefined;
  sending: boolean;
  onConfirm: (amount: number) => void;
  onClose: () => void;
  /** Another payment confirmed the same way (a video call's fee): its own title, words and button. */
  wording?: { title: string; description: string; confirm: string };
}

const TIP_WORDING = { title: 'Send a Tip', description: 'The coins go to the broadcaster straight away.', confirm: 'Confirm Tip' };

export function TipConfirmDialog({ amount, message, item, sending, onConfirm, onClose, wording = TIP_WORDING }: ConfirmProps) {
  return (
    <Modal
      open={amount !== null}
      onOpenChange={(open) => !open && onClose()}
      size="sm"
      title={wording.title}
      description={wording.description}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={sending}>
            Close
          </Button>
          <Button loading={sending} onClick={() => amount !== null && onConfirm(amount)}>
            {wording.confirm}
          </Button>
        </>
      }
    >
      <p className={styles.confirmAmount}>
        <CoinIcon size={32} />
        {amount !== null && formatCoins(amount)}
      </p>
      {item && <p className={styles.confirmMessage}>For: {item}</p>}
      {message && <p className={styles.confirmMessage}>“{message}”</p>}
    </Modal>
  );
}

interface FailureProps {
  failure: TipFailure | null;
  /** Only after a network failure: send the same tip again with the same key. */
  onRetry: (() => void) | null;
  retrying: boolean;
  onClose: () => void;
}

export function TipFailureDialog({ failure, onRetry, retrying, onClose }: FailureProps) {
  const skinPath = useSkinPath();
  return (
    <Modal
      open={failure !== null}
      onOpenChange={(open) => !open && onClose()}
      size="sm"
      title={MSG.tipFailureTitle}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          {onRetry && (
            <Button variant="secondary" loading={retrying} onClick={onRetry}>
              Try Again
            </Button>
          )}
          <a href={skinPath('/user/account/deposit-coins')} target="_blank" rel="noopener noreferrer" className={buttonClass({ variant: 'primary' })}>
            <span>Wallet</span>
          </a>
        </>
      }
    >
      {failure && (
        <div className={styles.failure} role="alert">
          <p>{failure.text}</p>
          {failure.kind === 'no-coins' && (
            <p>
              <SkinLink to="/user/account/deposit-coins" className={styles.link} onClick={onClose}>
                Get more coins
              </SkinLink>{' '}
              and try again.
            </p>
          )}
          {failure.kind === 'unknown' && <p className={styles.muted}>{MSG.tipContactSupport}</p>}
        </div>
      )}
    </Modal>
  );
}
