/**
 * The viewer's offer (spec part 2 §2 screen 12, §4): 'Lovense Device Access Offer' (Decline, Get Access)
 * for the access tip, or 'Additional Tip Request' (Decline, Send Tip) for an extra tip. Paying is
 * PAID_TIP_SUCCESS with an Idempotency-Key kept for a retry after a lost answer; short of coins, the
 * tip failure modal offers the wallet.
 */
import { useRef, useState } from 'react';
import type { ToyAccessRecord } from '../../../common/api/toys';
import { MSG } from '../../../common/messages';
import { Button } from '../../ui/Button';
import { CoinIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { useToast } from '../../ui/Toast';
import { newIdempotencyKey } from '../tips/api';
import { TipFailureDialog } from '../tips/TipDialogs';
import { attemptFor, tipFailure, type TipAttempt, type TipFailure } from '../tips/tip-flow';
import { formatCoins } from '../wallet/money';
import { useLovenseAction } from './api';
import type { ToyPlace } from './toy-rules';
import styles from './toys.module.css';

export function AccessOfferModal({ record, place, myId, hostName }: { record: ToyAccessRecord; place: ToyPlace; myId: number; hostName: string }) {
  const action = useLovenseAction(place, myId);
  const toast = useToast();
  const unsettled = useRef<TipAttempt | null>(null);
  const [failure, setFailure] = useState<TipFailure | null>(null);
  const extra = record.viewer_state === 'SHOW_TIP_REQUEST';
  const amount = extra ? record.requested_tip : record.tip_amount;

  const pay = () => {
    const attempt = attemptFor(unsettled.current, amount, newIdempotencyKey);
    unsettled.current = attempt;
    action.mutate(
      { action: { event: 'PAID_TIP_SUCCESS' }, key: attempt.key },
      {
        onSuccess: () => {
          unsettled.current = null;
        },
        onError: (error) => {
          const lost = error.code === 'network';
          if (!lost) unsettled.current = null;
          if (lost || error.code === 'insufficient_funds') setFailure(tipFailure(error));
          else toast({ title: MSG.toyGetAccessFailed, description: error.message, tone: 'error' });
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
            <Button loading={busy('PAID_TIP_SUCCESS')} disabled={action.isPending} onClick={pay}>
              {extra ? 'Send Tip' : 'Get Access'}
            </Button>
          </>
        }
      >
        <p className={styles.offerAmount}>
          <CoinIcon size={28} />
          {formatCoins(amount)}
        </p>
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
