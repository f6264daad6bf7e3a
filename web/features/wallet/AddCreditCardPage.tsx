/** /user/account/add-credit-card: save a card with the payment provider; only brand, last four and expiry come back. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { failureMessage, formRefusal, hasErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { WalletIcon } from '../../ui/icons';
import { Page, Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { useAddCreditCard, useCreditCards } from './api';
import { CardFields } from './CardForm';
import { EMPTY_CARD, cardPayload, cardProblems } from './card';
import type { CardValues } from './card';
import styles from './wallet.module.css';

const FORM_FIELDS = new Set(['number', 'exp_month', 'exp_year', 'cvc', 'name']);

export function AddCreditCardPage() {
  const skinPath = useSkinPath();
  return (
    <Page title="Add a Card" width="narrow" aside={<ButtonLink to={skinPath('/user/account')} variant="ghost">Back to Wallet</ButtonLink>}>
      <Section title="New card" description="We keep only the card's brand, last four digits and expiry; the payment provider keeps the rest.">
        <AddCardForm />
      </Section>
      <Section title="Saved cards">
        <SavedCards />
      </Section>
    </Page>
  );
}

function AddCardForm() {
  const add = useAddCreditCard();
  const toast = useToast();
  const [card, setCard] = useState<CardValues>(EMPTY_CARD);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    setMessage(null);
    const problems = cardProblems(card);
    if (hasErrors(problems)) return setErrors(problems);
    add.mutate(
      { card: cardPayload(card) },
      {
        onSuccess: ({ card: saved }) => {
          setCard(EMPTY_CARD);
          setErrors({});
          toast({ title: `${saved.brand} •••• ${saved.last4} saved.`, tone: 'success' });
        },
        onError: (error) => {
          const refusal = formRefusal(error, FORM_FIELDS);
          setErrors(refusal.fields);
          setMessage(refusal.message ?? (hasErrors(refusal.fields) ? null : failureMessage(error)));
        },
      },
    );
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Add a card">
      <CardFields
        values={card}
        errors={errors}
        disabled={add.isPending}
        onChange={(name, value) => {
          setCard((c) => ({ ...c, [name]: value }));
          setErrors((e) => ({ ...e, [name]: undefined, ...(name === 'exp_year' ? { exp_month: undefined } : {}) }));
        }}
      />
      <Alert>{message}</Alert>
      <div className={styles.submitRow}>
        <Button type="submit" loading={add.isPending}>
          Save Card
        </Button>
      </div>
    </form>
  );
}

function SavedCards() {
  const cards = useCreditCards();
  if (cards.isPending) return <Spinner label="Loading your cards" />;
  if (cards.isError) return <Alert>{failureMessage(cards.error)}</Alert>;
  if (cards.data.length === 0) return <EmptyState icon={<WalletIcon size={40} />}>No saved cards yet.</EmptyState>;
  return (
    <ul className={styles.cards}>
      {cards.data.map((c) => (
        <li key={c.card_id} className={styles.savedCard}>
          <span className={styles.cardBrand}>{c.brand}</span>
          <span className={styles.cardDigits}>•••• {c.last4}</span>
          <span className={styles.muted}>
            Expires {String(c.exp_month).padStart(2, '0')}/{c.exp_year}
          </span>
        </li>
      ))}
    </ul>
  );
}
