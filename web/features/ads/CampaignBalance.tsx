/**
 * An offer's prepaid campaign on the offers page (decision 0037): its balance, Fund (coins from the wallet,
 * checked with the contract's schema as they are typed), Pause or Resume, and Withdraw, which takes what is
 * left of a paused offer's balance back to the wallet. The server's refusals show as it words them.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import * as ads from '../../../common/api/ads';
import type { ManagedOffer } from '../../../common/api/ads';
import { fill, MSG } from '../../../common/messages';
import { coins } from '../../../common/rules/format';
import { failureMessage, formRefusal, schemaErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useFundOffer, useUpdateOffer, useWithdrawOffer } from './api';
import styles from './ads.module.css';

const FUND_FIELDS = new Set(['coins']);
const newKey = () => crypto.randomUUID();

export function CampaignBalance({ offer }: { offer: ManagedOffer }) {
  const [funding, setFunding] = useState(false);
  const pause = useUpdateOffer();
  const withdraw = useWithdrawOffer();
  // One key per withdrawal the advertiser asks for: a retry after a lost answer takes the coins once.
  const [withdrawKey, setWithdrawKey] = useState(newKey);
  const toast = useToast();
  const pays = offer.commission.impression + offer.commission.click + offer.commission.complete > 0;
  const onFailure = (error: unknown) => toast({ title: failureMessage(error), tone: 'error' });

  return (
    <section className={styles.campaign} aria-label={MSG.adsCampaignBalance}>
      <p className={styles.campaignBalance}>
        <span>{MSG.adsCampaignBalance}</span>
        <strong>{coins(offer.balance)}</strong>
        {offer.paused && <span className={styles.tag}>{MSG.adsPaused}</span>}
      </p>
      {pays && offer.balance === 0 && !offer.paused && <p className={styles.hint}>{MSG.adsCampaignEmpty}</p>}
      <div className={styles.cardActions}>
        <Button size="sm" onClick={() => setFunding(true)}>
          {MSG.adsFund}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          loading={pause.isPending}
          onClick={() => pause.mutate({ id: offer.id, paused: !offer.paused }, { onError: onFailure })}
        >
          {offer.paused ? MSG.adsResume : MSG.adsPause}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={!offer.paused || offer.balance === 0}
          title={offer.paused ? undefined : MSG.adsPauseBeforeWithdraw}
          loading={withdraw.isPending}
          onClick={() =>
            withdraw.mutate({ id: offer.id, key: withdrawKey }, {
              onSuccess: (answer) => {
                setWithdrawKey(newKey());
                toast({ title: fill(MSG.adsWithdrawn, { coins: answer.coins }), tone: 'success' });
              },
              onError: onFailure,
            })}
        >
          {MSG.adsWithdraw}
        </Button>
      </div>
      {funding && <FundModal offer={offer} onClose={() => setFunding(false)} />}
    </section>
  );
}

function FundModal({ offer, onClose }: { offer: ManagedOffer; onClose: () => void }) {
  const fund = useFundOffer();
  const toast = useToast();
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [key] = useState(newKey);
  const [refusal, setRefusal] = useState<{ fields: Partial<Record<string, string>>; message: string | null }>({ fields: {}, message: null });
  const input = { id: offer.id, coins: amount.trim() === '' ? undefined : Number(amount) };
  const checked = touched ? schemaErrors(ads.offerFund.input, input) : {};
  const error = checked.coins ?? refusal.fields.coins;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (schemaErrors(ads.offerFund.input, input).coins) return;
    fund.mutate({ id: offer.id, coins: Number(amount), key }, {
      onSuccess: () => {
        toast({ title: MSG.adsFunded, tone: 'success' });
        onClose();
      },
      onError: (failure) => setRefusal(formRefusal(failure, FUND_FIELDS)),
    });
  };

  return (
    <Modal open size="sm" onOpenChange={(open) => !open && onClose()} title={`${MSG.adsFund} “${offer.name}”`}>
      <form className={styles.form} onSubmit={submit} noValidate>
        {refusal.message && <Alert>{refusal.message}</Alert>}
        <TextField
          label={MSG.adsFundCoins}
          name="coins"
          inputMode="numeric"
          autoFocus
          value={amount}
          error={error}
          onChange={(event) => {
            setAmount(event.target.value);
            setRefusal({ fields: {}, message: null });
          }}
          onBlur={() => setTouched(true)}
        />
        <div className={styles.cardActions}>
          <Button variant="secondary" type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={fund.isPending}>
            {MSG.adsFund}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
