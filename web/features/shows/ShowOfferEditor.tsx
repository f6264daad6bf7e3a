/**
 * The broadcaster's show prices on the dashboard: coins a minute for a private show and a group show
 * (0: not offered), the tickets that start a group show, the spy price where the skin has spying, and the
 * minutes a show runs at least.
 */
import { useState, type FormEvent } from 'react';
import type { ShowOffer, ShowOfferInput } from '../../../common/api/shows';
import { MSG } from '../../../common/messages';
import { SHOW } from '../../../common/rules/shows';
import { useSkin } from '../../app/skin';
import { failureMessage, formRefusal } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useSaveShowOffer, useShowOffer } from './api';
import styles from './shows.module.css';

type Field = keyof ShowOfferInput;
const FIELDS: ReadonlySet<string> = new Set<Field>(['private_price', 'group_price', 'group_min_tickets', 'spy_price', 'min_minutes']);

export function ShowOfferEditor({ userId }: { userId: number }) {
  const offer = useShowOffer(userId);
  return (
    <Section title="Private and group shows" description="Viewers pay these coins each minute of a show, from its first; 0 turns a kind of show off.">
      {offer.isPending ? <Spinner /> : offer.isError ? <Alert>{failureMessage(offer.error)}</Alert> : <OfferForm userId={userId} offer={offer.data} />}
    </Section>
  );
}

function OfferForm({ userId, offer }: { userId: number; offer: ShowOffer }) {
  const save = useSaveShowOffer(userId);
  const toast = useToast();
  const spying = useSkin().flags.spyShows;
  const [draft, setDraft] = useState<Record<Field, string>>(() => ({
    private_price: String(offer.private_price), group_price: String(offer.group_price), group_min_tickets: String(offer.group_min_tickets),
    spy_price: String(offer.spy_price), min_minutes: String(offer.min_minutes),
  }));
  const refusal = save.isError ? formRefusal(save.error, FIELDS) : { fields: {}, message: null };
  const field = (name: Field, label: string, hint: string, max: number) => (
    <TextField label={label} hint={hint} inputMode="numeric" type="number" min={0} max={max} value={draft[name]}
      error={refusal.fields[name]} onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))} />
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    const number = (name: Field) => (draft[name].trim() === '' ? 0 : Number(draft[name]));
    save.mutate(
      { private_price: number('private_price'), group_price: number('group_price'), group_min_tickets: number('group_min_tickets'), spy_price: spying ? number('spy_price') : 0, min_minutes: number('min_minutes') },
      { onSuccess: () => toast({ title: MSG.showOfferSaved, tone: 'success' }) },
    );
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Show prices">
      {field('private_price', 'Private show', 'Coins a minute', SHOW.priceMax)}
      {field('group_price', 'Group show', 'Coins a minute, each ticket', SHOW.priceMax)}
      {field('group_min_tickets', 'Tickets to start', `${SHOW.ticketsMin}–${SHOW.ticketsMax}`, SHOW.ticketsMax)}
      {spying && field('spy_price', 'Spy', 'Coins a minute, below the private price', SHOW.priceMax)}
      {field('min_minutes', 'Minimum minutes', 'You keep a show on at least this long', SHOW.minMinutesMax)}
      <Button type="submit" loading={save.isPending}>Save prices</Button>
      <Alert>{refusal.message}</Alert>
    </form>
  );
}
