/**
 * /subscription: the subscription dashboard (spec part 1 §2 Subscription dashboard, part 2 §2 item 3):
 * My Subscriptions (subscriptions with renew and cancel, coin subscriptions) and My Offers (figures,
 * plan templates to add, own plans, subscribers). Tables show 5 rows a page.
 */
import { useSearchParams } from 'react-router';
import { Page } from '../../ui/Page';
import { Tabs } from '../../ui/Tabs';
import { MyOffers } from './MyOffers';
import { MySubscriptions } from './MySubscriptions';

type Tab = 'subscriptions' | 'offers';

export function SubscriptionPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'offers' ? 'offers' : 'subscriptions';
  return (
    <Page title="Subscriptions">
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
