/**
 * The plan selector 'Select your Subscription' (spec part 1 §2, §4 Subscription): step 0 chooses a plan
 * and a payment method (Process My Payment needs a plan; Back closes), step 1 pays and shows the outcome —
 * subscribed, needs funding (with the wallet link), already subscribed, or failed. The wallet is the
 * default; a method paid on a processor's page (those this installation takes) sends the payer there
 * for the plan's coins, and the subscription page shows what became of it (decision 0059).
 */
import { useState } from 'react';
import type { Plan } from '../../../common/api/subscriptions';
import { MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { CheckIcon, CoinIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { METHOD_LABELS, useBalance, useCheckoutMethods } from '../wallet';
import type { PaymentMethodId } from '../../../common/api/wallet';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { usePlans, useSubscribe, useSubscribeCheckout, type SubscribeAttempt } from './api';
import styles from './subscriptions.module.css';

type Outcome = { kind: 'subscribed' } | { kind: 'fund' } | { kind: 'failed'; message: string };

/** What an answer means to the person paying (spec part 2 §8: 0 with paid, 10516, 20002, other). */
function outcomeOf(error: unknown): Outcome {
  if (isApiError(error, 'fund_account')) return { kind: 'fund' };
  if (isApiError(error, 'already_subscribed') || isApiError(error, 'rating_too_low')) return { kind: 'failed', message: (error as Error).message };
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.code !== 'validation') return { kind: 'failed', message: failureMessage(error) };
  return { kind: 'failed', message: MSG.subscribeFailed };
}

export function SubscribeModal({ creatorId, creatorName, open, onOpenChange }: { creatorId: number; creatorName: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const plans = usePlans(creatorId, open);
  const subscribe = useSubscribe();
  const checkout = useSubscribeCheckout();
  const hosted = useCheckoutMethods(open);
  const [method, setMethod] = useState<'wallet' | PaymentMethodId>('wallet');
  const balance = useBalance(open);
  const skinPath = useSkinPath();
  const [step, setStep] = useState<0 | 1>(0);
  const [chosen, setChosen] = useState<Plan | null>(null);
  const [autoRenew, setAutoRenew] = useState(true);
  const [attempt, setAttempt] = useState<SubscribeAttempt | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const close = () => {
    onOpenChange(false);
    setStep(0);
    setChosen(null);
    setAttempt(null);
    setOutcome(null);
  };

  const pay = () => {
    if (!chosen) return;
    // One key per attempt: a retry of the same attempt (the same plan and choice) is paid once.
    const same = attempt && attempt.planId === chosen.plan_id && attempt.autoRenew === autoRenew;
    const next = same ? attempt : { planId: chosen.plan_id, creatorId, autoRenew, key: crypto.randomUUID() };
    setStep(1);
    setOutcome(null);
    if (method !== 'wallet') {
      checkout.mutate(
        { plan_id: chosen.plan_id, user_id: creatorId, auto_renew: autoRenew, payment_method: method, return_path: skinPath('/subscription') },
        // The processor's page takes the payment and sends the payer back to the subscription page.
        { onSuccess: (out) => window.location.assign(out.checkout.redirect_url), onError: (error) => setOutcome(outcomeOf(error)) },
      );
      return;
    }
    setAttempt(next);
    subscribe.mutate(next, { onSuccess: () => setOutcome({ kind: 'subscribed' }), onError: (error) => setOutcome(outcomeOf(error)) });
  };

  const footer = step === 0 ? (
    <>
      <Button variant="secondary" onClick={close}>Back</Button>
      <Button disabled={!chosen} onClick={pay}>{MSG.processMyPayment}</Button>
    </>
  ) : (
    <Button variant="secondary" onClick={close} disabled={subscribe.isPending || checkout.isPending || checkout.isSuccess}>Close</Button>
  );

  return (
    <Modal open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())} title={MSG.selectSubscription} description={step === 0 ? `Subscribe to @${creatorName}` : undefined} footer={footer}>
      {step === 0 && (
        <>
          {plans.isPending && <Spinner label="Loading the packages" />}
          {plans.isError && <Alert>{failureMessage(plans.error)}</Alert>}
          {plans.data && plans.data.plans.length === 0 && <p>{MSG.noOwnPackages}</p>}
          {plans.data && plans.data.plans.length > 0 && (
            <div role="radiogroup" aria-label="Packages">
              <ul className={styles.choices}>
                {plans.data.plans.map((p) => (
                  <li key={p.plan_id}>
                    <label className={`${styles.choice} ${chosen?.plan_id === p.plan_id ? styles.choiceChosen : ''}`}>
                      <input type="radio" name="plan" checked={chosen?.plan_id === p.plan_id} onChange={() => setChosen(p)} />
                      <span>
                        <strong>{p.name}</strong> · {p.period_label}
                        {p.discount > 0 && <span className={styles.badge}>Save {p.discount}%</span>}
                        {p.bestPrice && <span className={styles.badge}>Best price</span>}
                        <ul className={styles.features}>
                          {p.features.map((f) => <li key={f}>{f}</li>)}
                        </ul>
                      </span>
                      <span className={styles.choicePrice}>
                        {formatCoins(p.price)}
                        <br />
                        <small>${p.price_by_currency.USD.toFixed(2)}</small>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {plans.data && plans.data.plans.length > 0 && (
            <Checkbox checked={autoRenew} onChange={(e) => setAutoRenew(e.target.checked)}>Renew automatically at the end of each period</Checkbox>
          )}
          {plans.data && plans.data.plans.length > 0 && (
            <div role="radiogroup" aria-label="Payment method" className={styles.methods}>
              {(['wallet', ...hosted.methods] as const).map((id) => (
                <label key={id} className={`${styles.method} ${method === id ? styles.choiceChosen : ''}`}>
                  <input type="radio" name="payment-method" checked={method === id} onChange={() => setMethod(id)} />
                  <span>
                    <strong>{METHOD_LABELS[id]}</strong>
                    <small className={styles.muted}>
                      {id === 'wallet' ? (balance.data ? `Balance: ${formatCoins(balance.data.CON)}` : 'Your coins')
                        : chosen ? `$${chosen.price_by_currency.USD.toFixed(2)} on the payment page` : 'On the payment page'}
                    </small>
                  </span>
                </label>
              ))}
            </div>
          )}
          {method !== 'wallet' && (
            <p className={styles.muted}>
              {MSG.planCheckoutHint}
              {autoRenew && ` ${MSG.planCheckoutRenewsFromWallet}`}
            </p>
          )}
          {balance.data && <p>Your balance: {formatCoins(balance.data.CON)}</p>}
        </>
      )}
      {step === 1 && (
        <div className={styles.result} role="status">
          {subscribe.isPending && <Spinner label="Processing your payment" />}
          {(checkout.isPending || checkout.isSuccess) && (
            <>
              <Spinner label={MSG.redirectingToPayment} />
              <span>{MSG.redirectingToPayment}</span>
            </>
          )}
          {outcome?.kind === 'subscribed' && (
            <>
              <CheckIcon size={40} />
              <strong>{MSG.subscribedNow}</strong>
              {chosen && <span>{chosen.name} with @{creatorName}: {chosen.features.join(', ')}.</span>}
            </>
          )}
          {outcome?.kind === 'fund' && (
            <>
              <strong>{MSG.subscribeFundAccount}</strong>
              <span>{MSG.subscribeNeedsCoins}</span>
              <ButtonLink to={skinPath('/user/account/deposit-coins')} icon={<CoinIcon size={18} />}>
                {MSG.subscribeFundAccount}
              </ButtonLink>
            </>
          )}
          {outcome?.kind === 'failed' && <Alert>{outcome.message}</Alert>}
        </div>
      )}
    </Modal>
  );
}
