/** Buying an impression package with coins: the wallet page and the dashboard's Get Popular both use it (spec part 1 §5). */
import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { useToast } from '../../ui/Toast';
import { newIdempotencyKey } from '../../api/idempotency';
import { useBalance, useBuyImpressions, useImpressionPackages } from './api';
import { buyAttempt, packageOptions, type BuyAttempt } from './impressions';
import { formatCoins, formatImpressions } from '../../../common/rules/wallet-amounts';
import styles from './wallet.module.css';

export function BuyImpressionsForm({ onBought, showCoins = false }: { onBought?: () => void; showCoins?: boolean }) {
  const packages = useImpressionPackages();
  const coins = useBalance();
  const buy = useBuyImpressions();
  const toast = useToast();
  const unsettled = useRef<BuyAttempt | null>(null);
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shortOfCoins, setShortOfCoins] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (buy.isPending) return;
    setShortOfCoins(null);
    setFailure(null);
    if (!choice) return setError(MSG.impressionPackageRequired);
    const attempt = buyAttempt(unsettled.current, Number(choice), newIdempotencyKey);
    unsettled.current = attempt;
    buy.mutate(attempt, {
      onSuccess: (out) => {
        unsettled.current = null;
        setChoice('');
        toast({ title: `Impressions bought. You now have ${formatImpressions(out.impression_balance)}.`, tone: 'success' });
        onBought?.();
      },
      onError: (refusal: unknown) => {
        // A network failure may have gone through: a retry keeps the key, so it cannot buy twice.
        if (!isApiError(refusal, 'network')) unsettled.current = null;
        if (!isApiError(refusal)) return setFailure(failureMessage(refusal));
        if (refusal.code === 'insufficient_funds') return setShortOfCoins(refusal.message);
        if (refusal.field === 'id') return setError(refusal.message);
        setFailure(failureMessage(refusal));
      },
    });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Buy impressions">
      {showCoins && (
        <p className={styles.coinsLine}>
          <span className={styles.balanceLabel}>Your coins</span>
          <strong>{coins.data ? formatCoins(coins.data.CON) : '…'}</strong>
        </p>
      )}
      <Select
        label="Impression Package"
        placeholder={packages.isPending ? 'Loading packages…' : 'Select a package'}
        options={packageOptions(packages.data ?? [])}
        value={choice}
        onChange={(e) => {
          setChoice(e.target.value);
          setError(null);
          setShortOfCoins(null);
          setFailure(null);
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
      <Alert>{failure}</Alert>
      <div className={styles.submitRow}>
        <Button type="submit" loading={buy.isPending}>
          Buy with Coins
        </Button>
      </div>
    </form>
  );
}
