/** My Offers (the creator's view): subscriber figures, packages to add, own packages, offers on them, and the subscribers. */
import { useState } from 'react';
import type { PlanTemplate } from '../../../common/api/subscriptions';
import { fill, MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { PlusIcon, StarIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { Paginator } from '../../ui/Paginator';
import { SelectControl } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import stat from '../../ui/StatCards.module.css';
import { useToast } from '../../ui/Toast';
import { useSession } from '../accounts';
import { useAddPlan, useDeletePlan, useMargin, useMySubscribers, usePlans, usePlanTemplates, useSubscriberStats } from './api';
import { PlanOffers } from './PlanOffers';
import { PAGE, SubscriptionTable } from './SubscriptionTable';
import styles from './subscriptions.module.css';

export function MyOffers() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className={styles.stack}>
      <SubscriberStats userId={user.user_id} />
      <Section title="Subscription packages" description="Offer your fans a package: choose a price and add it. Each package at each price once.">
        <Templates />
      </Section>
      <Section title="My packages" description="Withdrawing a package stops new subscriptions and renewals; subscribers keep it to the end of what they paid.">
        <MyPlans userId={user.user_id} />
      </Section>
      <Section title="Offers" description="A free trial, a discount on the first period or a bundle of months on one of your packages, for as many fans and as long as you choose. Share its link; after the offer, subscriptions renew at the package's full price.">
        <PlanOffers userId={user.user_id} />
      </Section>
      <Section title="My Subscribers">
        <Subscribers userId={user.user_id} />
      </Section>
    </div>
  );
}

function SubscriberStats({ userId }: { userId: number }) {
  const stats = useSubscriberStats(userId);
  if (stats.isError) return <Alert>{failureMessage(stats.error)}</Alert>;
  const s = stats.data;
  const tiles = [
    { label: 'Active subscribers', value: s?.active_subscribers },
    { label: 'Subscribers ever', value: s?.total_subscribers },
    { label: 'Paid by subscribers (coins)', value: s?.coins_total },
    { label: 'Revenue (USD)', value: s && `$${s.revenue_usd.toFixed(2)}` },
  ];
  return (
    <ul className={stat.cards} aria-label="Subscriber stats" aria-busy={stats.isPending || undefined}>
      {tiles.map((tile) => (
        <li key={tile.label} className={stat.card}>
          <span className={stat.label}>{tile.label}</span>
          {tile.value !== undefined ? <strong className={stat.value}>{tile.value}</strong> : <span className={stat.skeleton} />}
        </li>
      ))}
    </ul>
  );
}

function Templates() {
  const templates = usePlanTemplates();
  const margin = useMargin();
  if (templates.isPending) return <Spinner label="Loading the packages" />;
  if (templates.isError) return <Alert>{fill(MSG.planTemplateGetFailed, { message: failureMessage(templates.error) })}</Alert>;
  const available = templates.data.filter((t) => t.prices.some((p) => !p.added));
  return (
    <>
      {margin.data && (
        <p className={styles.muted}>
          The platform keeps {margin.data.margin} % of each payment; you receive {margin.data.creator_share} %.
        </p>
      )}
      {available.length === 0 ? (
        <EmptyState>{MSG.noAvailablePackages}</EmptyState>
      ) : (
        <ul className={styles.templates}>
          {available.map((t) => <TemplateCard key={t.template_id} template={t} />)}
        </ul>
      )}
    </>
  );
}

function TemplateCard({ template }: { template: PlanTemplate }) {
  const toast = useToast();
  const add = useAddPlan();
  const [price, setPrice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!price) {
      setError(MSG.planPriceInvalid);
      return;
    }
    setError(null);
    add.mutate({ template_id: template.template_id, price: Number(price) }, {
      onSuccess: () => {
        toast({ title: MSG.planAdded, tone: 'success' });
        setPrice('');
      },
      onError: (e) => setError(fill(MSG.planAddFailed, { message: failureMessage(e) })),
    });
  };
  const options = template.prices.filter((p) => !p.added).map((p) => ({
    value: String(p.price),
    label: `${p.period_label} · ${p.price} coins ($${p.price_by_currency.USD.toFixed(2)})`,
  }));
  return (
    <li className={styles.template} aria-label={`${template.name} package`}>
      <h3 className={styles.templateName}>{template.name}</h3>
      <p className={styles.muted}>{template.description}</p>
      <ul className={styles.features}>
        {template.features.map((f) => <li key={f}>{f}</li>)}
      </ul>
      <div className={styles.addRow}>
        <SelectControl aria-label={`${template.name} price`} options={options} placeholder="Select a price" value={price} onChange={(e) => setPrice(e.target.value)} />
        <Button icon={<PlusIcon size={16} />} loading={add.isPending} onClick={submit}>
          Add
        </Button>
      </div>
      {error && <p className={styles.error} role="alert">{error}</p>}
    </li>
  );
}

function MyPlans({ userId }: { userId: number }) {
  const plans = usePlans(userId);
  const remove = useDeletePlan();
  const toast = useToast();
  const [deleting, setDeleting] = useState<number | null>(null);
  if (plans.isPending) return <Spinner label="Loading your packages" />;
  if (plans.isError) return <Alert>{fill(MSG.planGetFailed, { message: failureMessage(plans.error) })}</Alert>;
  if (plans.data.plans.length === 0) return <EmptyState>{MSG.noOwnPackages}</EmptyState>;
  const target = plans.data.plans.find((p) => p.plan_id === deleting);
  return (
    <>
      <ul className={styles.plans}>
        {plans.data.plans.map((p) => (
          <li key={p.plan_id} className={styles.plan}>
            <div>
              <strong>{p.name}</strong> · {p.period_label} · {p.price} coins
              {p.discount > 0 && <span className={styles.badge}>Save {p.discount}%</span>}
              {p.bestPrice && <span className={styles.badge}>Best price</span>}
              <p className={styles.muted}>{p.features.join(' · ')}</p>
            </div>
            <Button size="sm" variant="ghost" onClick={() => setDeleting(p.plan_id)}>
              Delete
            </Button>
          </li>
        ))}
      </ul>
      {target && (
        <Modal
          open
          onOpenChange={(open) => !open && setDeleting(null)}
          title="Delete this package?"
          description={`${target.name}, ${target.period_label} at ${target.price} coins will no longer be offered. Its subscribers keep it to the end of what they paid.`}
          footer={
            <>
              <Button variant="secondary" onClick={() => setDeleting(null)}>Back</Button>
              <Button
                variant="danger"
                loading={remove.isPending}
                onClick={() => remove.mutate(target.plan_id, {
                  onSuccess: () => { toast({ title: MSG.planDeleted, tone: 'success' }); setDeleting(null); },
                  onError: (e) => toast({ title: failureMessage(e), tone: 'error' }),
                })}
              >
                Delete package
              </Button>
            </>
          }
        />
      )}
    </>
  );
}

function Subscribers({ userId }: { userId: number }) {
  const [offset, setOffset] = useState(0);
  const list = useMySubscribers(userId, offset);
  if (list.isPending) return <Spinner label="Loading your subscribers" />;
  if (list.isError) return <Alert>{failureMessage(list.error)}</Alert>;
  const { subscriptions, total } = list.data;
  if (total === 0) return <EmptyState icon={<StarIcon size={40} />}>{MSG.noSubscriptions}</EmptyState>;
  return (
    <>
      <SubscriptionTable
        label="My subscribers"
        rows={subscriptions}
        busy={list.isPlaceholderData}
        party={(s) => <><SkinLink to={`/u/${s.user_id}`}>@{s.username}</SkinLink> · {s.plan_name}</>}
      />
      <Paginator label="Subscriber pages" total={total} size={PAGE} offset={offset} onOffset={setOffset} />
    </>
  );
}
