/** /user/account/deposit-coins: pick a coin package and a way to pay (spec part 1 §2 wallet routes; part 2 §9 payment methods). */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { MSG } from '../../../common/messages';
import type { CallInput } from '../../../common/api';
import type { depositCoins } from '../../../common/api/wallet';
import { failureMessage, formRefusal, hasErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';
import { SkinLink, useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { CoinIcon } from '../../ui/icons';
import { Page, Section } from '../../ui/Page';
import { SelectControl } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { useBalance, useCoinPackages, useCreditCards, useDepositCoins, usePaymentMethods } from './api';
import { CardFields, cardLabel } from './CardForm';
import { DepositReturn } from './DepositReturn';
import { DepositThanks } from './DepositThanks';
import { METHOD_LABELS } from './methods';
import { EMPTY_CARD, cardPayload, cardProblems } from './card';
import type { CardValues } from './card';
import { formatCents, formatCoins } from '../../../common/rules/wallet-amounts';
import styles from './wallet.module.css';

/**
 * The spec's payment methods, wallet (a saved card) first (part 2 §9). `processor` is the server's
 * payment method behind each: one the installation cannot take is shown disabled with the reason.
 */
const METHODS = [
  { id: 'wallet', processor: 'card', label: METHOD_LABELS.wallet, hint: 'A card you saved' },
  { id: 'card', processor: 'card', label: METHOD_LABELS.card, hint: 'Type in a card' },
  { id: 'paypal', processor: 'paypal', label: METHOD_LABELS.paypal, hint: '' },
  { id: 'bitcoin', processor: 'bitcoin', label: METHOD_LABELS.bitcoin, hint: '' },
] as const;
type Method = (typeof METHODS)[number]['id'];

const CHOOSE_PACKAGE = 'Please choose a package';
const CHOOSE_CARD = 'Please choose a saved card, or pay with a credit card.';
const NO_METHOD = 'Buying coins is not available on this site right now.';
const FORM_FIELDS = new Set(['package_id', 'card_token', 'number', 'exp_month', 'exp_year', 'cvc', 'name', 'card', 'renew_monthly']);

/** "Mar 24, 2027": when a recurring package renews next. */
const renewalDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** How a recurring package ends (spec part 2 §7: an e-mailed request to support, sent from the Subscriptions page). */
function HowToCancel() {
  return (
    <>
      To cancel, send support a cancellation request by e-mail from the <SkinLink to="/subscription">Subscriptions</SkinLink> page.
    </>
  );
}

export function DepositCoinsPage() {
  const balance = useBalance();
  const [query, setQuery] = useSearchParams();
  // Back from the processor's page: ?payment=<id>&outcome=success|cancel.
  const returned = Number(query.get('payment'));
  return (
    <Page title="Buy Coins" width="narrow" aside={balance.data && <span className={styles.pill}>Balance: {formatCoins(balance.data.CON)}</span>}>
      {Number.isSafeInteger(returned) && returned > 0
        ? <DepositReturn paymentId={returned} cancelled={query.get('outcome') === 'cancel'} onDone={() => setQuery({}, { replace: true })} />
        : <DepositForm />}
    </Page>
  );
}

function DepositForm() {
  const skinPath = useSkinPath();
  const location = useLocation();
  const packages = useCoinPackages();
  const cards = useCreditCards();
  const deposit = useDepositCoins();
  const methods = usePaymentMethods();
  // Null until the person picks: the defaults follow what loaded (the first package; the wallet only with a saved card).
  const [pickedPackage, setPackageId] = useState<number | null>(null);
  const [pickedMethod, setMethod] = useState<Method | null>(null);
  const [cardId, setCardId] = useState<string>('');
  const [card, setCard] = useState<CardValues>(EMPTY_CARD);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [renew, setRenew] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  const [done, setDone] = useState<{ coins: number; balance: number; renewsOn: string | null } | null>(null);

  // Cards paid on the processor's own page (Stripe Checkout): no card form, and saved cards are not charged from here.
  const cardCheckout = methods.data?.find((x) => x.id === 'card')?.checkout === true;
  const savedCards = cardCheckout ? [] : (cards.data ?? []);
  const packageId = pickedPackage ?? packages.data?.[0]?.package_id ?? null;
  const unavailable = (m: (typeof METHODS)[number]) => methods.data?.find((x) => x.id === m.processor && !x.available)?.reason ?? null;
  const shown = METHODS.filter((m) => !(cardCheckout && m.id === 'wallet'));
  const offered = shown.filter((m) => !unavailable(m) && (m.id !== 'wallet' || savedCards.length > 0));
  const method: Method | null = pickedMethod ?? (cards.isPending || methods.isPending ? null : (offered[0]?.id ?? null));
  const noMethod = methods.isSuccess && !cards.isPending && offered.length === 0;
  const chosenCard = cardId || (savedCards[0] ? String(savedCards[0].card_id) : '');
  const chosenPackage = packages.data?.find((p) => p.package_id === packageId);

  if (done) {
    return (
      <DepositThanks onBuyMore={() => setDone(null)}>
        <p>
          <strong>{formatCoins(done.coins)}</strong> added to your wallet.
        </p>
        <p className={styles.muted}>New balance: {formatCoins(done.balance)}</p>
        {done.renewsOn && (
          <p className={styles.renewal}>
            This package renews every month on your card. Next renewal: <strong>{renewalDate(done.renewsOn)}</strong>. <HowToCancel />
          </p>
        )}
      </DepositThanks>
    );
  }

  function check(): { ok: true; input: CallInput<typeof depositCoins> } | { ok: false; errors: FieldErrors; message?: string } {
    if (packageId === null) return { ok: false, errors: { package_id: CHOOSE_PACKAGE } };
    if (method === null) return { ok: false, errors: {}, message: NO_METHOD };
    if (method === 'paypal' || method === 'bitcoin') return { ok: true, input: { package_id: packageId, payment_method: method, return_path: location.pathname } };
    if (method === 'card' && cardCheckout) {
      return { ok: true, input: { package_id: packageId, payment_method: 'card', return_path: location.pathname, ...(renew ? { renew_monthly: true } : {}) } };
    }
    if (method === 'wallet') {
      if (!chosenCard) return { ok: false, errors: { card_token: CHOOSE_CARD } };
      return { ok: true, input: { package_id: packageId, payment_method: 'card', card_token: chosenCard, ...(renew ? { renew_monthly: true } : {}) } };
    }
    const problems = cardProblems(card);
    if (hasErrors(problems)) return { ok: false, errors: problems };
    return { ok: true, input: { package_id: packageId, payment_method: 'card', card: cardPayload(card), ...(renew ? { renew_monthly: true } : {}) } };
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (deposit.isPending || redirecting) return;
    setMessage(null);
    const checked = check();
    if (!checked.ok) {
      setMessage(checked.message ?? null);
      return setErrors(checked.errors);
    }
    setErrors({});
    deposit.mutate(checked.input, {
      onSuccess: (out) => {
        if (out.checkout) {
          // The processor's page takes the payment; it sends the payer back here with ?payment=<id>.
          setMessage(null);
          setRedirecting(true);
          window.location.assign(out.checkout.redirect_url);
          return;
        }
        setDone({ coins: out.coins, balance: out.balance.CON, renewsOn: out.coin_subscription?.next_renewal_date ?? null });
        setRenew(false);
        setCard(EMPTY_CARD);
      },
      onError: (error) => {
        const refusal = formRefusal(error, FORM_FIELDS);
        setErrors(refusal.fields);
        // A decline (402) and an unavailable method carry the text to show.
        setMessage(refusal.message ?? (hasErrors(refusal.fields) ? null : failureMessage(error)));
      },
    });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Buy coins">
      <Section title="Choose a package">
        {packages.isPending ? (
          <Spinner label="Loading packages" />
        ) : packages.isError ? (
          <Alert>{failureMessage(packages.error)}</Alert>
        ) : (
          <div className={styles.packages} role="radiogroup" aria-label="Coin packages" aria-describedby={errors.package_id ? 'package-error' : undefined}>
            {packages.data.map((p) => (
              <label key={p.package_id} className={`${styles.package} ${packageId === p.package_id ? styles.packageChosen : ''}`}>
                <input
                  type="radio"
                  name="package"
                  className="visually-hidden"
                  checked={packageId === p.package_id}
                  onChange={() => {
                    setPackageId(p.package_id);
                    setErrors((e) => ({ ...e, package_id: undefined }));
                  }}
                />
                <CoinIcon size={28} />
                <strong className={styles.packageCoins}>{p.coins.toLocaleString('en-US')}</strong>
                <span className={styles.packageName}>{p.name === formatCoins(p.coins) ? 'Coins' : `Coins · ${p.name}`}</span>
                <span className={styles.packagePrice}>{formatCents(p.price, p.currency)}</span>
              </label>
            ))}
          </div>
        )}
        {errors.package_id && (
          <p id="package-error" className={styles.fieldError} role="alert">
            {errors.package_id}
          </p>
        )}
      </Section>

      <Section title="Payment method">
        <div className={styles.methods} role="radiogroup" aria-label="Payment method">
          {shown.map((m) => {
            const reason = unavailable(m);
            const hint = m.id === 'card' && cardCheckout ? MSG.cardOnProcessorPage : m.hint;
            return (
              <label key={m.id} className={`${styles.method} ${method === m.id ? styles.methodChosen : ''} ${reason ? styles.methodOff : ''}`}>
                <input
                  type="radio"
                  name="method"
                  checked={method === m.id}
                  disabled={reason !== null}
                  onChange={() => {
                    setMethod(m.id);
                    setMessage(null);
                    setErrors((e) => ({ package_id: e.package_id }));
                  }}
                />
                <span>
                  <strong>{m.label}</strong>
                  {(reason ?? hint) && <span className={styles.methodHint}>{reason ?? hint}</span>}
                </span>
              </label>
            );
          })}
        </div>
        {noMethod && <Alert tone="info">{NO_METHOD}</Alert>}

        {method === 'wallet' &&
          (cards.isPending ? (
            <Spinner label="Loading your cards" />
          ) : savedCards.length === 0 ? (
            <Alert tone="info">
              You have no saved card yet. <SkinLink to="/user/account/add-credit-card">Add a card</SkinLink> or choose Credit Card to type one in.
            </Alert>
          ) : (
            <label className={styles.inlineField}>
              <span>Pay with</span>
              <SelectControl
                value={chosenCard}
                onChange={(e) => setCardId(e.target.value)}
                options={savedCards.map((c) => ({ value: String(c.card_id), label: cardLabel(c) }))}
                aria-invalid={Boolean(errors.card_token) || undefined}
              />
            </label>
          ))}
        {errors.card_token && (
          <p className={styles.fieldError} role="alert">
            {errors.card_token}
          </p>
        )}
        {method === 'card' && !cardCheckout && (
          <CardFields
            values={card}
            errors={errors}
            disabled={deposit.isPending}
            onChange={(name, value) => {
              setCard((c) => ({ ...c, [name]: value }));
              setErrors((e) => ({ ...e, [name]: undefined, ...(name === 'exp_year' ? { exp_month: undefined } : {}) }));
            }}
          />
        )}
        {(method === 'wallet' || method === 'card') && (
          <div className={styles.renewChoice}>
            <Checkbox checked={renew} disabled={deposit.isPending} onChange={(e) => setRenew(e.target.checked)} error={errors.renew_monthly}>
              Renew every month
            </Checkbox>
            <p className={styles.methodHint}>
              {method === 'card' && cardCheckout ? 'The payment page keeps your card for it, and this package is bought again on it every month until cancelled. '
                : method === 'card' ? 'The card is saved, and this package is bought again on it every month until cancelled. ' : 'This package is bought again on this card every month until cancelled. '}
              <HowToCancel />
            </p>
          </div>
        )}
      </Section>

      <Alert>{message}</Alert>
      {redirecting && <Alert tone="info">{MSG.redirectingToPayment}</Alert>}
      <div className={styles.submitRow}>
        <ButtonLink to={skinPath('/user/account')} variant="ghost">
          Cancel
        </ButtonLink>
        <Button type="submit" loading={deposit.isPending || redirecting} disabled={noMethod} icon={<CoinIcon size={18} />}>
          {chosenPackage ? `Buy ${formatCoins(chosenPackage.coins)} for ${formatCents(chosenPackage.price, chosenPackage.currency)}` : 'Buy Coins'}
        </Button>
      </div>
    </form>
  );
}
