/**
 * /subscription: the subscription dashboard (spec part 1 §2 Subscription dashboard, part 2 §2 item 3):
 * My Subscriptions (subscriptions with renew and cancel, coin subscriptions) and My Offers (figures,
 * plan templates to add, own plans, subscribers). Tables show 5 rows a page. A payer back from a
 * processor's page with a plan paid there sees what became of it above them.
 */
import { useSearchParams } from 'react-router';
import { Page } from '../../ui/Page';
import { Tabs } from '../../ui/Tabs';
import { MyOffers } from './MyOffers';
import { MySubscriptions } from './MySubscriptions';
import { PlanCheckoutReturn } from './PlanCheckoutReturn';

type Tab = 'subscriptions' | 'offers';

export function SubscriptionPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'offers' ? 'offers' : 'subscriptions';
  // Back from the processor's page with a plan paid there: ?payment=<id>&outcome=success|cancel.
  const returned = Number(params.get('payment'));
  return (
    <Page title="Subscriptions">
      {Number.isSafeInteger(returned) && returned > 0 && (
        <PlanCheckoutReturn paymentId={returned} cancelled={params.get('outcome') === 'cancel'} onDone={() => setParams({}, { replace: true })} />
      )}
      <Tabs<Tab>
        label="Subscription dashboard"
        value={tab}
        onValueChange={(value) => setParams(value === 'offers' ? { tab: 'offers' } : {}, { replace: true })}
        tabs={[
          { value: 'subscriptions', label: 'My Subscriptions', content: <MySubscriptions /> },
          { value: 'offers', label: 'My Offers', content: <MyOffers /> },
        ]}
      />
    </Page>
  );
}
