/** Get Paid / Set Stream Payment (spec part 1 §2 Broadcaster dashboard, §4 Stream lifecycle, §5 Broadcast setup). */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { failureMessage, serverFieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { useToast } from '../../ui/Toast';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { useUpdateStream } from './api';
import { PriceField } from './PriceField';
import { isPaid, priceError, priceLabel } from './stream-payment';
import styles from './GetPaidModal.module.css';

interface GetPaidModalProps {
  stream: StreamInfo;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function GetPaidModal({ stream, open, onOpenChange }: GetPaidModalProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Set Stream Payment" description="Viewers tip at least this many coins to watch your stream." size="sm">
      {open && <PriceForm stream={stream} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function PriceForm({ stream, onDone }: { stream: StreamInfo; onDone: () => void }) {
  const current = stream.tip_viewer_min_amount;
  const paid = isPaid(current);
  const update = useUpdateStream(stream.stream_id);
  const toast = useToast();
  const [text, setText] = useState(String(current));
  // A paid stream's price is locked (spec §4) until the broadcaster asks to change it.
  const [unlocked, setUnlocked] = useState(!paid);
  const [touched, setTouched] = useState(false);
  const error = priceError(text, current);
  const unchanged = !error && Number(text) === current;
  const serverError = update.isError ? (serverFieldErrors(update.error)['data.tip_viewer_min_amount'] ?? failureMessage(update.error)) : null;

  const type = (value: string) => {
    setText(value);
    update.reset();
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (error || unchanged || !unlocked) return;
    const price = Number(text);
    update.mutate(
      { tip_viewer_min_amount: price },
      {
        onSuccess: () => {
          toast({ title: isPaid(price) ? `Stream price set to ${formatCoins(price)}.` : 'Your stream is free to watch.', tone: 'success' });
          onDone();
        },
      },
    );
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Stream payment">
      <p className={styles.current}>
        <span className={styles.currentLabel}>Current price</span>
        <strong>{priceLabel(current)}</strong>
      </p>
      <PriceField
        current={current}
        value={text}
        onChange={type}
        onBlur={() => setTouched(true)}
        disabled={!unlocked || update.isPending}
        error={unlocked && (touched || text !== String(current)) ? error : undefined}
        hint={!unlocked ? undefined : paid ? 'A paid stream stays paid: the price can change, but not back to 0.' : 'Once above 0 your stream is paid and cannot be made free again.'}
      />
      {paid && !unlocked && (
        <Alert tone="info">Your stream is paid and cannot be made free again, so its price is locked. A new price applies to viewers at once.</Alert>
      )}
      <Alert>{serverError}</Alert>
      <div className={styles.actions}>
        {paid && !unlocked ? (
          <Button variant="secondary" onClick={() => setUnlocked(true)}>
            Change price
          </Button>
        ) : (
          <Button type="submit" loading={update.isPending} disabled={Boolean(error) || unchanged}>
            Save
          </Button>
        )}
      </div>
    </form>
  );
}
