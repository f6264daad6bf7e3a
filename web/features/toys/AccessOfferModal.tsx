/**
 * The viewer's offer (spec part 2 §2 screen 12, §4): 'Lovense Device Access Offer' (Decline, Get Access)
 * for the access tip, or 'Additional Tip Request' (Decline, Send Tip) for an extra tip. Paying is
 * PAID_TIP_SUCCESS for the amount shown, with an Idempotency-Key kept for a retry after a lost answer;
 * short of coins, the tip failure modal offers the wallet. When the host's ask changed before the tip
 * (the server answers 409 on `tip_amount`, decision 0038), the record is read again, so the modal
 * shows the new amount for the viewer to accept or decline.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { ToyAccessRecord } from '../../../common/api/toys';
import { MSG } from '../../../common/messages';
import { Button } from '../../ui/Button';
import { CoinIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { useToast } from '../../ui/Toast';
import { newIdempotencyKey } from '../../api/idempotency';
import { TipFailureDialog, attemptFor, tipFailure, type TipAttempt, type TipFailure } from '../tips';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { toyKeys, useLovenseAction } from './api';
import type { ToyPlace } from './toy-rules';
import styles from './toys.module.css';

export function AccessOfferModal({ record, place, myId, hostName }: { record: ToyAccessRecord; place: ToyPlace; myId: number; hostName: string }) {
  const action = useLovenseAction(place, myId);
  const queryClient = useQueryClient();
  const toast = useToast();
  const unsettled = useRef<TipAttempt | null>(null);
  const [failure, setFailure] = useState<TipFailure | null>(null);
  const extra = record.viewer_state === 'SHOW_TIP_REQUEST';
  const amount = extra ? record.requested_tip : record.tip_amount;
  // No device connected on the host's side: nothing to pay for yet (the server refuses it too).
  const noDevice = record.app_connection_status !== 'connected';

  const pay = () => {
    const attempt = attemptFor(unsettled.current, amount, newIdempotencyKey);
    unsettled.current = attempt;
    action.mutate(
      { action: { event: 'PAID_TIP_SUCCESS', tip_amount: amount }, key: attempt.key },
      {
        onSuccess: () => {
          unsettled.current = null;
        },
        onError: (error) => {
          const lost = error.code === 'network';
          if (!lost) unsettled.current = null;
          if (lost || error.code === 'insufficient_funds') setFailure(tipFailure(error));
          else if (error.code === 'conflict' && error.field === 'tip_amount') {
            toast({ title: error.message, tone: 'info' });
            void queryClient.invalidateQueries({ queryKey: toyKeys.mine(place) });
          } else toast({ title: MSG.toyGetAccessFailed, description: error.message, tone: 'error' });
        },
      },
    );
  };
  const decline = () => action.mutate({ action: { event: 'DECLINE_REQUEST' } }, { onError: () => toast({ title: MSG.toyDeclineFailed, tone: 'error' }) });
  const busy = (event: string) => action.isPending && action.variables.action.event === event;

  return (
    <>
      <Modal
        open={failure === null}
        blocking
        size="sm"
        title={extra ? MSG.toyTipRequestTitle : MSG.toyOfferTitle}
        description={extra ? `${hostName} asks for an extra tip to keep control of their device.` : `${hostName} offers you control of their device for a tip.`}
        footer={
          <>
            <Button variant="secondary" loading={busy('DECLINE_REQUEST')} disabled={action.isPending} onClick={decline}>
              Decline
            </Button>
            <Button loading={busy('PAID_TIP_SUCCESS')} disabled={action.isPending || noDevice} onClick={pay}>
              {extra ? 'Send Tip' : 'Get Access'}
            </Button>
          </>
        }
      >
        <p className={styles.offerAmount}>
          <CoinIcon size={28} />
          {formatCoins(amount)}
        </p>
        {noDevice && <p className={styles.muted}>{MSG.toyWaitingForDevice}</p>}
      </Modal>
      <TipFailureDialog
        failure={failure}
        onRetry={failure?.kind === 'network' ? pay : null}
        retrying={busy('PAID_TIP_SUCCESS')}
        onClose={() => setFailure(null)}
      />
    </>
  );
}
