import { MSG, fill } from '../../../common/messages';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { AUDIENCES } from '../../../common/api/streams';
import type { StreamInfo } from '../../../common/api/streams';
import { shownTitle } from '../../../common/rules/stream-display';
import { failureMessage, hasErrors, schemaErrors } from '../../api/field-errors';
import { useSkin } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { Select } from '../../ui/Select';
import { Switch } from '../../ui/Switch';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { useSession } from '../accounts';
import { useUpdateStream } from './api';
import { PriceField } from './PriceField';
import { AUDIENCE_LABEL, RATING_LABEL, ratingMenu } from './rating-options';
import { isPaid, priceError, priceLabel } from './stream-payment';
import styles from './StreamInfoModal.module.css';
import * as streams from '../../../common/api/streams';

const AUDIENCE_OPTIONS = AUDIENCES.map((a) => ({ value: a, label: AUDIENCE_LABEL[a] }));

interface StreamInfoModalProps {
  stream: StreamInfo;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'setup' (dashboard): every field and the tip amount; 'edit' (stream page owner): audience and title. */
  mode: 'setup' | 'edit';
}

type Values = Pick<StreamInfo, 'title' | 'description' | 'audience' | 'rating' | 'chat_enabled'>;

/** Broadcast setup and the owner's stream update form (spec part 1 §5). */
export function StreamInfoModal({ stream, open, onOpenChange, mode }: StreamInfoModalProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={mode === 'setup' ? 'Broadcast setup' : 'Edit stream'}>
      {open && <StreamInfoForm stream={stream} mode={mode} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function StreamInfoForm({ stream, mode, onDone }: { stream: StreamInfo; mode: 'setup' | 'edit'; onDone: () => void }) {
  const skin = useSkin();
  const { user } = useSession();
  const update = useUpdateStream(stream.stream_id);
  const [values, setValues] = useState<Values>(() => ({
    title: stream.ready ? shownTitle(stream.title) : '',
    description: stream.description,
    audience: stream.audience,
    rating: stream.rating,
    chat_enabled: stream.chat_enabled,
  }));
  const [touched, setTouched] = useState(false);
  // The tip amount (spec part 1 §5): set here while the stream is free; once paid (§4) it is locked
  // here and changed from Get Paid. Sent only when changed, so saving a paid stream's setup leaves its price alone.
  const currentPrice = stream.tip_viewer_min_amount;
  const paid = isPaid(currentPrice);
  const [price, setPrice] = useState(String(currentPrice));
  const priceProblem = mode === 'setup' && !paid ? priceError(price, currentPrice) : undefined;
  const priceChanged = mode === 'setup' && !paid && !priceProblem && Number(price) !== currentPrice;
  const { ratings, elsewhere } = ratingMenu(user?.perms ?? [], skin.flags.adultContent, stream.rating);
  const data =
    mode === 'setup' ? { ...values, ...(priceChanged ? { tip_viewer_min_amount: Number(price) } : {}) } : { title: values.title, audience: values.audience };
  const errors = schemaErrors(streams.updateStreamInfo.input, { id: stream.stream_id, data }, 'data');
  const invalid = hasErrors(errors) || Boolean(priceProblem);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (invalid) return;
    update.mutate(data, { onSuccess: onDone });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Title"
        value={values.title}
        maxLength={120}
        onChange={(e) => set('title', e.target.value)}
        onBlur={() => setTouched(true)}
        error={touched ? errors.title : undefined}
        autoFocus
      />
      {mode === 'setup' && (
        <TextArea label="Description (optional)" value={values.description} maxLength={1000} rows={3} onChange={(e) => set('description', e.target.value)} />
      )}
      <Select label="Audience" options={AUDIENCE_OPTIONS} value={values.audience} onChange={(e) => set('audience', e.target.value as Values['audience'])} />
      {mode === 'setup' && (
        <>
          <Select
            label="Rating"
            options={ratings.map((r) => ({ value: r, label: RATING_LABEL[r] }))}
            value={values.rating}
            onChange={(e) => set('rating', e.target.value as Values['rating'])}
            hint={elsewhere && values.rating === stream.rating ? fill(MSG.ratingPlaysElsewhere, { rating: RATING_LABEL[stream.rating] }) : undefined}
          />
          <Switch label="Chat enabled" description="Viewers can chat while you stream." checked={values.chat_enabled} onCheckedChange={(on) => set('chat_enabled', on)} />
          <PriceField
            className={styles.payment}
            legend="Stream payment"
            label="Tip amount (coins)"
            current={currentPrice}
            value={price}
            onChange={setPrice}
            onBlur={() => setTouched(true)}
            disabled={paid || update.isPending}
            error={touched || price !== String(currentPrice) ? priceProblem : undefined}
            hint={
              paid
                ? `Your stream is paid: ${priceLabel(currentPrice)}. Change the price from Get Paid on the dashboard.`
                : 'Viewers tip at least this many coins to watch; 0 keeps your stream free. Once above 0 it stays paid.'
            }
          />
        </>
      )}
      <Alert>{update.isError ? `${MSG.streamUpdateFailed} ${failureMessage(update.error)}` : null}</Alert>
      <div className={styles.actions}>
        <Button type="submit" loading={update.isPending} disabled={invalid}>
          Save
        </Button>
      </div>
    </form>
  );
}
