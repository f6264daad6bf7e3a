/** /user/account/buy-impressions: spend coins on an impression package (spec part 1 §5 Buy impressions). */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { SkinLink, useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { Page, Section } from '../../ui/Page';
import { Select } from '../../ui/Select';
import { useToast } from '../../ui/Toast';
import { useBalance, useBuyImpressions, useImpressionBalance, useImpressionPackages } from './api';
import { formatCoins, formatImpressions } from './money';
import styles from './wallet.module.css';

/** The spec's words for a buy without a package (part 1 §5). */
export const IMPRESSION_PACKAGE_REQUIRED = 'Impression Package cannot be blank.';

export function BuyImpressionsPage() {
  const skinPath = useSkinPath();
  const impressions = useImpressionBalance();
  const balance = useBalance();
  return (
    <Page title="Buy Impressions" width="narrow" aside={<ButtonLink to={skinPath('/user/account')} variant="ghost">Back to Wallet</ButtonLink>}>
      <ul className={styles.balances} aria-label="Balances">
        <li className={`${styles.balance} ${styles.balanceStrong}`}>
          <span className={styles.balanceLabel}>Impressions</span>
          {impressions.data !== undefined ? <strong className={styles.balanceValue}>{formatImpressions(impressions.data)}</strong> : <span className={styles.skeleton} />}
        </li>
        <li className={styles.balance}>
          <span className={styles.balanceLabel}>Coins</span>
          {balance.data ? <strong className={styles.balanceValue}>{formatCoins(balance.data.CON)}</strong> : <span className={styles.skeleton} />}
        </li>
      </ul>
      <Section title="Get Popular" description="Impressions feature your stream at the top of Popular while they last.">
        <BuyForm />
      </Section>
    </Page>
  );
}

function BuyForm() {
  const packages = useImpressionPackages();
  const buy = useBuyImpressions();
  const toast = useToast();
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shortOfCoins, setShortOfCoins] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (buy.isPending) return;
    setShortOfCoins(null);
    if (!choice) return setError(IMPRESSION_PACKAGE_REQUIRED);
    buy.mutate(
      { id: Number(choice) },
      {
        onSuccess: (out) => {
          setChoice('');
          toast({ title: `Impressions bought. You now have ${formatImpressions(out.impression_balance)}.`, tone: 'success' });
        },
        onError: (failure) => {
          if (isApiError(failure, 402)) return setShortOfCoins(failure.message);
          setError(failureMessage(failure));
        },
      },
    );
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Buy impressions">
      <Select
        label="Impression Package"
        placeholder={packages.isPending ? 'Loading packages…' : 'Select a package'}
        options={(packages.data ?? []).map((p) => ({ value: String(p.package_id), label: `${p.name} — ${formatImpressions(p.impressions)} for ${formatCoins(p.price)}` }))}
        value={choice}
        onChange={(e) => {
          setChoice(e.target.value);
          setError(null);
          setShortOfCoins(null);
        }}
        error={error ?? undefined}
        disabled={packages.isPending}
      />
      {packages.isError && <Alert>{failureMessage(packages.error)}</Alert>}
      {shortOfCoins && (
        <Alert>
          {shortOfCoins.replace(/\.$/, '')}. <SkinLink to="/user/account/deposit-coins">Get more coins</SkinLink>
        </Alert>
      )}
      <div className={styles.submitRow}>
        <Button type="submit" loading={buy.isPending}>
          Buy with Coins
        </Button>
      </div>
    </form>
  );
}
