/**
 * An offer opened from its link (decision 0089): the plan, its full price struck through beside the
 * offer's price, the terms in one sentence ("Free for 7 days, then 150 Coins a month"), renewal at the
 * full price, and the button that takes it from the coin wallet. Why an offer cannot be taken (ended,
 * full, not for a former subscriber) is said instead of the button.
 */
import { useState } from 'react';
import { fill, MSG } from '../../../common/messages';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { CheckIcon, CoinIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { useBalance } from '../wallet';
import { useClaimPlanOffer, usePlanOffer, type OfferAttempt } from './api';
import styles from './subscriptions.module.css';

type Outcome = { kind: 'taken'; message: string } | { kind: 'fund' } | { kind: 'failed'; message: string };

function outcomeOf(error: unknown): Outcome {
  if (isApiError(error, 'fund_account')) return { kind: 'fund' };
  if (isApiError(error) && error.status >= 400 && error.status < 500) return { kind: 'failed', message: failureMessage(error) };
  return { kind: 'failed', message: MSG.subscribeFailed };
}

export function OfferModal({ code, creatorName, open, onOpenChange }: { code: string; creatorName: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const lookup = usePlanOffer(code, open);
  const balance = useBalance(open);
  const claim = useClaimPlanOffer();
  const skinPath = useSkinPath();
  const [autoRenew, setAutoRenew] = useState(true);
  const [attempt, setAttempt] = useState<OfferAttempt | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const close = () => {
    onOpenChange(false);
    setAttempt(null);
    setOutcome(null);
  };

  const take = () => {
    // One key per attempt: a retry of the same choice takes the offer once.
    const next = attempt && attempt.autoRenew === autoRenew ? attempt : { code, autoRenew, key: crypto.randomUUID() };
    setAttempt(next);
    setOutcome(null);
    claim.mutate(next, { onSuccess: (out) => setOutcome({ kind: 'taken', message: out.message }), onError: (error) => setOutcome(outcomeOf(error)) });
  };

  const data = lookup.data;
  const offer = data?.offer;
  const free = offer?.first_price === 0;
  // What the first period would cost at the plan's own price: a bundle's months, else one period.
  const full = offer ? offer.plan_price * (offer.kind === 'bundle' ? (offer.months ?? 1) : 1) : 0;
  const done = outcome?.kind === 'taken';
  const footer = (
    <>
      <Button variant="secondary" onClick={close} disabled={claim.isPending}>{done ? 'Close' : 'Back'}</Button>
      {data?.claimable && !done && (
        <Button onClick={take} loading={claim.isPending}>{free ? MSG.offerStartTrial : MSG.offerTake}</Button>
      )}
    </>
  );

  return (
    <Modal
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title={MSG.offerDialogTitle}
      description={fill(MSG.offerDialogDescription, { name: creatorName })}
      footer={footer}
    >
      {lookup.isPending && <Spinner label="Loading the offer" />}
      {lookup.isError && <Alert>{failureMessage(lookup.error)}</Alert>}
      {offer && data && (
        <div className={styles.offer} aria-label="Offer">
          <div className={styles.offerHead}>
            <span>
              <strong>{offer.plan_name}</strong> · {offer.plan_period_label}
              <span className={styles.badge}>{offer.name}</span>
            </span>
            <span className={styles.offerPrice}>
              <s aria-label={`Full price ${formatCoins(full)}`}>{formatCoins(full)}</s>
              <strong>{free ? 'Free' : formatCoins(offer.first_price)}</strong>
            </span>
          </div>
          <p className={styles.offerTerms}>{offer.terms}</p>
          <ul className={styles.features}>
            {offer.features.map((f) => <li key={f}>{f}</li>)}
          </ul>
          {offer.ends_at && offer.state === 'open' && <p className={styles.muted}>Offer ends {new Date(offer.ends_at).toLocaleString()}</p>}
          {offer.max_claims !== null && offer.state === 'open' && (
            <p className={styles.muted}>{offer.max_claims - offer.claims} of {offer.max_claims} left</p>
          )}
          {data.reason && !done && <Alert>{data.reason}</Alert>}
          {data.claimable && !done && (
            <>
              <Checkbox checked={autoRenew} onChange={(e) => setAutoRenew(e.target.checked)}>{MSG.offerRenewsAtFullPrice}</Checkbox>
              {!autoRenew && <p className={styles.muted}>{MSG.offerEndsAutomatically}</p>}
              <p className={styles.muted}>
                {MSG.offerWalletOnly} {balance.data && `Balance: ${formatCoins(balance.data.CON)}`}
              </p>
            </>
          )}
        </div>
      )}
      {(claim.isPending || outcome) && (
        <div className={styles.result} role="status">
          {claim.isPending && <Spinner label="Taking the offer" />}
          {outcome?.kind === 'taken' && (
            <>
              <CheckIcon size={40} />
              <strong>{MSG.subscribedNow}</strong>
              <span>{outcome.message}</span>
              {balance.data && <span>Your balance: {formatCoins(balance.data.CON)}</span>}
            </>
          )}
          {outcome?.kind === 'fund' && (
            <>
              <strong>{MSG.subscribeFundAccount}</strong>
              <span>{MSG.subscribeNeedsCoins}</span>
              <ButtonLink to={skinPath('/user/account/deposit-coins')} icon={<CoinIcon size={18} />}>{MSG.subscribeFundAccount}</ButtonLink>
            </>
          )}
          {outcome?.kind === 'failed' && <Alert>{outcome.message}</Alert>}
        </div>
      )}
    </Modal>
  );
}
