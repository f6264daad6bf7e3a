/**
 * The creator's offers on their packages (decision 0089), on My Offers: a form that puts a free trial,
 * a first-period discount or a bundle of months on a package, limited in count and time if wished; and
 * the offers with their terms, how many fans took them, their link to copy, and Withdraw.
 */
import { useState, type FormEvent } from 'react';
import type { PlanOffer } from '../../../common/api/plan-offers';
import type { Plan } from '../../../common/api/subscriptions';
import { MSG } from '../../../common/messages';
import { isMonthlyPlan, OFFER_RULES, offerPath, type OfferKind } from '../../../common/rules/plan-offers';
import { failureMessage, serverFieldErrors, type FieldErrors } from '../../api/field-errors';
import { useSkin } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { copyText } from '../../ui/clipboard';
import { EmptyState } from '../../ui/EmptyState';
import { LinkIcon, PlusIcon } from '../../ui/icons';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useAddPlanOffer, useMyPlanOffers, usePlans, useWithdrawPlanOffer } from './api';
import styles from './subscriptions.module.css';

const KIND_OPTIONS: Array<{ value: OfferKind; label: string }> = [
  { value: 'trial', label: 'Free trial' },
  { value: 'discount', label: 'Discount on the first period' },
  { value: 'bundle', label: 'Bundle of months' },
];
const MONTH_OPTIONS = OFFER_RULES.bundleMonths.map((m) => ({ value: String(m), label: `${m} months` }));
const STATE_LABELS: Record<PlanOffer['state'], string> = { open: 'Running', withdrawn: 'Withdrawn', ended: 'Ended', full: 'Full' };

/** The public address of an offer's link, on the skin the creator is on. */
function useOfferUrl(): (code: string) => string {
  const skin = useSkin();
  return (code) => `${window.location.origin}${skin.prefix}${offerPath(code)}`;
}

export function PlanOffers({ userId }: { userId: number }) {
  const plans = usePlans(userId);
  const offers = useMyPlanOffers();
  if (plans.isPending || offers.isPending) return <Spinner label="Loading your offers" />;
  if (plans.isError) return <Alert>{failureMessage(plans.error)}</Alert>;
  if (offers.isError) return <Alert>{failureMessage(offers.error)}</Alert>;
  if (plans.data.plans.length === 0) return <EmptyState>{MSG.offerNeedsPackage}</EmptyState>;
  return (
    <div className={styles.stack}>
      <OfferForm plans={plans.data.plans} />
      {offers.data.length === 0 ? <EmptyState>{MSG.offerNoneYet}</EmptyState> : (
        <ul className={styles.plans} aria-label="My offers">
          {offers.data.map((offer) => <OfferRow key={offer.offer_id} offer={offer} />)}
        </ul>
      )}
      <p className={styles.muted}>{MSG.offerCheckoutNote}</p>
    </div>
  );
}

function OfferForm({ plans }: { plans: readonly Plan[] }) {
  const add = useAddPlanOffer();
  const toast = useToast();
  const [planId, setPlanId] = useState(String(plans[0]!.plan_id));
  const [kind, setKind] = useState<OfferKind>('trial');
  const [days, setDays] = useState('7');
  const [percent, setPercent] = useState('20');
  const [months, setMonths] = useState('6');
  const [maxClaims, setMaxClaims] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const plan = plans.find((p) => String(p.plan_id) === planId);
  const kinds = plan && isMonthlyPlan(plan.period) ? KIND_OPTIONS : KIND_OPTIONS.filter((k) => k.value !== 'bundle');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setFailure(null);
    add.mutate({
      plan_id: Number(planId),
      kind,
      ...(kind === 'trial' ? { days } : { percent }),
      ...(kind === 'bundle' ? { months } : {}),
      ...(maxClaims.trim() ? { max_claims: maxClaims.trim() } : {}),
      ...(endsAt ? { ends_at: new Date(endsAt).toISOString() } : {}),
    }, {
      onSuccess: () => toast({ title: MSG.offerAdded, tone: 'success' }),
      onError: (error) => {
        const fields = serverFieldErrors(error);
        setErrors(fields);
        if (Object.keys(fields).length === 0) setFailure(failureMessage(error));
      },
    });
  };

  return (
    <form className={styles.offerForm} aria-label="New offer" onSubmit={submit} noValidate>
      <Select label="Package" value={planId} onChange={(e) => setPlanId(e.target.value)} error={errors.plan_id}
        options={plans.map((p) => ({ value: String(p.plan_id), label: `${p.name} · ${p.period_label} · ${p.price} coins` }))} />
      <Select label="Kind of offer" value={kind} onChange={(e) => setKind(e.target.value as OfferKind)} error={errors.kind} options={kinds} />
      {kind === 'trial' && (
        <TextField label="Free days" type="number" inputMode="numeric" min={OFFER_RULES.trialDays.min} max={OFFER_RULES.trialDays.max}
          value={days} onChange={(e) => setDays(e.target.value)} error={errors.days} />
      )}
      {kind === 'bundle' && <Select label="Months" value={months} onChange={(e) => setMonths(e.target.value)} error={errors.months} options={MONTH_OPTIONS} />}
      {kind !== 'trial' && (
        <TextField label="Percent off" type="number" inputMode="numeric" min={OFFER_RULES.percent.min} max={OFFER_RULES.percent.max}
          value={percent} onChange={(e) => setPercent(e.target.value)} error={errors.percent} />
      )}
      <TextField label="Limit of fans (optional)" type="number" inputMode="numeric" min={1} value={maxClaims}
        onChange={(e) => setMaxClaims(e.target.value)} error={errors.max_claims} />
      <TextField label="Ends (optional)" type="datetime-local" value={endsAt} onChange={(e) => setEndsAt(e.target.value)} error={errors.ends_at} />
      <div className={styles.offerFormActions}>
        <Button type="submit" icon={<PlusIcon size={16} />} loading={add.isPending}>Add offer</Button>
      </div>
      {failure && <p className={styles.error} role="alert">{failure}</p>}
    </form>
  );
}

function OfferRow({ offer }: { offer: PlanOffer }) {
  const withdraw = useWithdrawPlanOffer();
  const toast = useToast();
  const url = useOfferUrl()(offer.code);
  const copy = async () => {
    const copied = await copyText(url);
    toast(copied ? { title: MSG.linkCopied, description: url, tone: 'success' } : { title: 'Copy this link', description: url });
  };
  const taken = offer.max_claims === null ? `${offer.claims} taken` : `${offer.claims} of ${offer.max_claims} taken`;
  return (
    <li className={styles.plan} aria-label={`${offer.name} on ${offer.plan_name}`}>
      <div className={styles.offerInfo}>
        <span>
          <strong>{offer.name}</strong> · {offer.plan_name}, {offer.plan_period_label}
          <span className={`${styles.state} ${styles.offerState} ${offer.state === 'open' ? styles.state_enabled : styles.state_cancelled}`}>{STATE_LABELS[offer.state]}</span>
        </span>
        <span>{offer.terms}</span>
        <span className={styles.muted}>
          {taken}
          {offer.ends_at && ` · ends ${new Date(offer.ends_at).toLocaleString()}`}
        </span>
        {offer.state === 'open' && <input className={styles.offerLink} readOnly value={url} aria-label={`Link of the ${offer.name}`} onFocus={(e) => e.target.select()} />}
      </div>
      {offer.state === 'open' && (
        <div className={styles.actions}>
          <Button size="sm" variant="secondary" icon={<LinkIcon size={16} />} onClick={() => void copy()}>Copy link</Button>
          <Button size="sm" variant="ghost" loading={withdraw.isPending}
            onClick={() => withdraw.mutate(offer.offer_id, {
              onSuccess: () => toast({ title: MSG.offerWithdrawnDone, tone: 'success' }),
              onError: (e) => toast({ title: failureMessage(e), tone: 'error' }),
            })}
          >
            Withdraw
          </Button>
        </div>
      )}
    </li>
  );
}
