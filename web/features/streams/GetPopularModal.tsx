/** Get Popular and its buy-impressions modal (spec part 1 §2 Broadcaster dashboard, §5 Buy impressions). */
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { useImpressionBalance, BuyImpressionsForm } from '../wallet';
import { formatImpressions } from '../../../common/rules/wallet-amounts';
import styles from './GetPopularModal.module.css';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function GetPopularModal({ open, onOpenChange, onBuy }: ModalProps & { onBuy: () => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Get Popular" description="Impressions feature your stream at the top of Popular while they last." size="sm">
      {open && <ImpressionBalance onBuy={onBuy} />}
    </Modal>
  );
}

function ImpressionBalance({ onBuy }: { onBuy: () => void }) {
  const impressions = useImpressionBalance();
  return (
    <div className={styles.body}>
      <div className={styles.balance}>
        <span className={styles.balanceLabel}>Impressions balance</span>
        {impressions.data !== undefined ? (
          <strong className={styles.balanceValue}>{formatImpressions(impressions.data)}</strong>
        ) : impressions.isError ? null : (
          <span className={styles.skeleton} />
        )}
      </div>
      {impressions.isError && <Alert>{failureMessage(impressions.error)}</Alert>}
      <div className={styles.actions}>
        <Button onClick={onBuy}>Buy Impressions</Button>
      </div>
    </div>
  );
}

/** The buy-impressions modal; `onBought` follows a buy (back to Get Popular with the new balance). */
export function BuyImpressionsModal({ open, onOpenChange, onBought }: ModalProps & { onBought: () => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Buy Impressions" size="sm">
      {open && <BuyImpressionsForm onBought={onBought} showCoins />}
    </Modal>
  );
}
