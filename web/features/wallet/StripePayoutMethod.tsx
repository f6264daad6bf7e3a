/**
 * Stripe as the payout method (decision 0063): choosing it takes the creator to Stripe's onboarding; back
 * on the Earnings page (`?stripe=return`) the account's status is asked again, and it counts once Stripe
 * lets the account be paid out.
 */
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { CallOutput } from '../../../common/api';
import type { payouts } from '../../../common/api/calls';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { useRefreshStripeAccount, useStartStripeOnboarding } from './earnings-api';
import styles from './wallet.module.css';

type Stripe = CallOutput<typeof payouts.myEarnings>['stripe'];

export function StripePayoutMethod({ stripe, chosen }: { stripe: Stripe; chosen: boolean }) {
  const start = useStartStripeOnboarding();
  const refresh = useRefreshStripeAccount();
  const [query, setQuery] = useSearchParams();
  const returned = useRef(false);
  const back = query.get('stripe');
  useEffect(() => {
    if (!back || returned.current) return;
    returned.current = true;
    refresh.mutate({}, { onSettled: () => setQuery((q) => { q.delete('stripe'); return q; }, { replace: true }) });
  }, [back, refresh, setQuery]);
  const onboard = () => start.mutate({}, { onSuccess: ({ url }) => window.location.assign(url) });
  const enabled = chosen && stripe?.payouts_enabled === true;
  return (
    <div className={styles.toolbar} aria-label="Stripe payouts">
      <p role="status">
        {enabled ? <>Payouts go to your Stripe account, which pays your bank on Stripe&apos;s schedule.</>
          : chosen && stripe?.details_submitted ? <>Stripe is still checking your details: payouts start once it enables your account.</>
            : chosen ? <>Finish setting up your Stripe account to be paid through Stripe.</>
              : <>Get paid through Stripe: it asks for your details and bank account on its own page. Your bank account here is then no longer used.</>}
      </p>
      <Button variant={enabled ? 'secondary' : 'primary'} loading={start.isPending || refresh.isPending} onClick={onboard}>
        {enabled ? 'Update Stripe details' : chosen && stripe ? 'Continue on Stripe' : 'Get paid with Stripe'}
      </Button>
      {(start.isError || refresh.isError) && <Alert>{failureMessage((start.error ?? refresh.error)!)}</Alert>}
    </div>
  );
}
