/** Get Popular and its buy-impressions modal (spec part 1 §2 Broadcaster dashboard, §5 Buy impressions). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { CallOutput } from '../../../common/api';
import { IDEMPOTENCY_HEADER } from '../../../common/api/tips';
import { buyImpressionsPackage } from '../../../common/api/wallet';
import type { ApiError } from '../../api/client';
import { call, isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { Select } from '../../ui/Select';
import { useToast } from '../../ui/Toast';
import { newIdempotencyKey } from '../tips/api';
import { IMPRESSION_PACKAGE_REQUIRED } from '../wallet/BuyImpressionsPage';
import { useBalance, useImpressionBalance, useImpressionPackages, walletKeys } from '../wallet/api';
import { formatCoins, formatImpressions } from '../wallet/money';
import { buyAttempt, packageOptions } from './impressions';
import type { BuyAttempt } from './impressions';
import styles from './GetPopularModal.module.css';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function GetPopularModal({ open, onOpenChange, onBuy }: ModalProps & { onBuy: () => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Get Popular" description="Impressions feature your stream at the top of Popular while they last." size="sm">
      {open && <ImpressionBalance onBuy={onBuy} />}
    </Modal>
  );
}

function ImpressionBalance({ onBuy }: { onBuy: () => void }) {
  const impressions = useImpressionBalance();
  return (
    <div className={styles.body}>
      <div className={styles.balance}>
        <span className={styles.balanceLabel}>Impressions balance</span>
        {impressions.data !== undefined ? (
          <strong className={styles.balanceValue}>{formatImpressions(impressions.data)}</strong>
        ) : impressions.isError ? null : (
          <span className={styles.skeleton} />
        )}
      </div>
      {impressions.isError && <Alert>{failureMessage(impressions.error)}</Alert>}
      <div className={styles.actions}>
        <Button onClick={onBuy}>Buy Impressions</Button>
      </div>
    </div>
  );
}

type BuyAnswer = CallOutput<typeof buyImpressionsPackage>;

/**
 * Buys a package with an Idempotency-Key (the wallet's useBuyImpressions sends none); the answer's
 * balances go to the wallet caches the same way.
 */
function useBuyImpressionsOnce() {
  const queryClient = useQueryClient();
  return useMutation<BuyAnswer, ApiError, BuyAttempt>({
    mutationFn: ({ packageId, key }) => call(buyImpressionsPackage, { id: packageId }, { [IDEMPOTENCY_HEADER]: key }),
    onSuccess: (out) => {
      queryClient.setQueryData(walletKeys.balance(), out.balance);
      queryClient.setQueryData(walletKeys.impressionBalance(), out.impression_balance);
      void queryClient.invalidateQueries({ queryKey: [...walletKeys.all, 'transfers'] });
    },
  });
}

/** The buy-impressions modal; `onBought` follows a buy (back to Get Popular with the new balance). */
export function BuyImpressionsModal({ open, onOpenChange, onBought }: ModalProps & { onBought: () => void }) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Buy Impressions" size="sm">
      {open && <BuyForm onBought={onBought} />}
    </Modal>
  );
}

function BuyForm({ onBought }: { onBought: () => void }) {
  const packages = useImpressionPackages();
  const coins = useBalance();
  const buy = useBuyImpressionsOnce();
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
    if (!choice) return setError(IMPRESSION_PACKAGE_REQUIRED);
    const attempt = buyAttempt(unsettled.current, Number(choice), newIdempotencyKey);
    unsettled.current = attempt;
    buy.mutate(attempt, {
      onSuccess: (out) => {
        unsettled.current = null;
        toast({ title: `Impressions bought. You now have ${formatImpressions(out.impression_balance)}.`, tone: 'success' });
        onBought();
      },
      onError: (refusal: unknown) => {
        // A network failure may have gone through: a retry keeps the key, so it cannot buy twice.
        if (!isApiError(refusal, 0)) unsettled.current = null;
        if (!isApiError(refusal)) return setFailure(failureMessage(refusal));
        if (refusal.status === 402) return setShortOfCoins(refusal.message);
        if (refusal.field === 'id') return setError(refusal.message);
        setFailure(failureMessage(refusal));
      },
    });
  }

  return (
    <form className={styles.body} onSubmit={submit} noValidate aria-label="Buy impressions">
      <p className={styles.coins}>
        <span className={styles.balanceLabel}>Your coins</span>
        <strong>{coins.data ? formatCoins(coins.data.CON) : '…'}</strong>
      </p>
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
      <div className={styles.actions}>
        <Button type="submit" loading={buy.isPending}>
          Buy
        </Button>
      </div>
    </form>
  );
}
