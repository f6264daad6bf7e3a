/**
 * The form of an offer, new or edited (spec part 1 §3 Offer): name, short description, description,
 * type, rating, target link, size, commission per impression, click and completion, and the creative,
 * which goes up over the resumable upload layer with its progress before offer-create (or
 * offer-update, which replaces the creative) takes its upload id. The contract checks the fields as
 * they are typed; the server's refusals show under the field it names.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { AD_TYPES } from '../../../common/api/ads';
import type { AdType, ManagedOffer } from '../../../common/api/ads';
import { RATINGS } from '../../../common/api/streams';
import { AD } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { formRefusal, hasErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { FieldError } from '../../ui/Field';
import { Select } from '../../ui/Select';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { forgetUploads, UploadFailure } from '../../uploads/resumable-upload';
import { UploadProgress } from '../../uploads/UploadProgress';
import { useUploadQueue } from '../../uploads/use-upload-queue';
import { AD_RATING_LABEL, AD_TYPE_LABEL, COMMISSION_LABEL, creativeProblem, dottedErrors, draftOf, EMPTY_DRAFT, FIELD_NAME, OFFER_FORM_FIELDS, offerFields } from './ad-rules';
import type { OfferDraft } from './ad-rules';
import { useCreateOffer, useUpdateOffer } from './api';
import { CreativeField } from './CreativeField';
import styles from './ads.module.css';
import * as ads from '../../../common/api/ads';

type Rating = (typeof RATINGS)[number];
type Phase = 'editing' | 'uploading' | 'saving';

/** What the upload id stands for while the file is not sent yet (the contract checks its shape only). */
const PENDING_UPLOAD = 'pending';

/** The contract's limits, for the fields' `maxLength`. */
const LIMITS = ads.offerCreate.input.shape;
const maxLength = (limit: number | null) => limit ?? undefined;

interface OfferFormProps {
  /** The offer to edit; none for a new one. */
  offer?: ManagedOffer;
  onSaved: (offer: ManagedOffer) => void;
  onCancel?: () => void;
}

export function OfferForm({ offer, onSaved, onCancel }: OfferFormProps) {
  const [draft, setDraft] = useState<OfferDraft>(() => (offer ? draftOf(offer) : EMPTY_DRAFT));
  const [file, setFile] = useState<File | null>(null);
  // The chosen video's running time, once read (null until then, and for images).
  const [seconds, setSeconds] = useState<number | null>(null);
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('editing');
  const queue = useUploadQueue(MSG.internal);
  const create = useCreateOffer();
  const update = useUpdateOffer();
  const busy = phase !== 'editing';
  const type: AdType | '' = offer?.type ?? draft.type;

  // The type is the offer's for good: an edit sends the other fields.
  const { type: _type, ...editable } = offerFields(draft);
  const checks: FieldErrors = offer
    ? dottedErrors(ads.offerUpdate.input, { id: offer.id, ...editable, upload_id: file ? PENDING_UPLOAD : undefined })
    : dottedErrors(ads.offerCreate.input, { ...offerFields(draft), upload_id: PENDING_UPLOAD });
  if (!offer && !file) checks.upload_id = MSG.adsCreativeRequired;
  else if (file && type) checks.upload_id = creativeProblem(type, file, seconds) ?? undefined;
  const errors: FieldErrors = { ...serverErrors, ...Object.fromEntries(Object.entries(checks).filter(([, message]) => message)) };
  const shown = (field: string) => (touched ? errors[field] : undefined);

  const set = <K extends keyof OfferDraft>(key: K, value: OfferDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setServerErrors((e) => ({ ...e, [FIELD_NAME[key]]: undefined, ...(FIELD_NAME[key].startsWith('commission.') ? { commission: undefined } : {}) }));
  };
  const text = (key: keyof OfferDraft) => ({ value: draft[key], onChange: (e: { target: { value: string } }) => set(key, e.target.value), error: shown(FIELD_NAME[key]) });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setFailure(null);
    setServerErrors({});
    if (busy || hasErrors(checks)) return;
    let uploadId: string | undefined;
    if (file) {
      setPhase('uploading');
      try {
        [uploadId] = await queue.run([file]);
      } catch (error) {
        setPhase('editing');
        setFailure(error instanceof UploadFailure ? error.message : MSG.internal);
        return;
      }
    }
    setPhase('saving');
    const handlers = {
      onSuccess: ({ offer: saved }: { offer: ManagedOffer }) => {
        if (file) void forgetUploads([file]);
        setPhase('editing');
        onSaved(saved);
      },
      onError: (error: unknown) => {
        setPhase('editing');
        const refusal = formRefusal(error, OFFER_FORM_FIELDS);
        setServerErrors(refusal.fields);
        setFailure(refusal.message);
      },
    };
    if (offer) update.mutate({ id: offer.id, ...editable, ...(uploadId ? { upload_id: uploadId } : {}) }, handlers);
    else create.mutate({ ...offerFields(draft), type: draft.type as AdType, rating: draft.rating as Rating, upload_id: uploadId ?? '' }, handlers);
  }

  const commissionHint = useId();
  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate aria-label={offer ? 'Edit offer' : 'New offer'}>
      <fieldset className={styles.fields} disabled={busy}>
        <legend className="visually-hidden">Offer details</legend>
        <TextField label="Name" maxLength={maxLength(LIMITS.name.maxLength)} required {...text('name')} />
        <TextField label="Short description" maxLength={maxLength(LIMITS.short_description.maxLength)} required hint="Shown with the ad." {...text('short_description')} />
        <TextArea label="Description (optional)" maxLength={maxLength(LIMITS.description.unwrap().maxLength)} rows={3} {...text('description')} />
        <div className={styles.row}>
          <Select
            label="Type"
            placeholder="Select a type"
            options={AD_TYPES.map((t) => ({ value: t, label: AD_TYPE_LABEL[t] }))}
            value={type}
            disabled={!!offer}
            onChange={(e) => set('type', e.target.value as AdType | '')}
            error={shown('type')}
            hint={offer ? 'The type of an offer stays.' : undefined}
            required
          />
          <Select
            label="Rating"
            placeholder="Select a rating"
            options={RATINGS.map((r) => ({ value: r, label: AD_RATING_LABEL[r] }))}
            value={draft.rating}
            onChange={(e) => set('rating', e.target.value as Rating | '')}
            error={shown('rating')}
            required
          />
        </div>
        <TextField label="Target link" type="url" inputMode="url" placeholder="https://" required {...text('ad_link')} />
        <div className={styles.row}>
          <TextField label="Width (px, optional)" type="number" inputMode="numeric" min={1} {...text('dim_x')} />
          <TextField label="Height (px, optional)" type="number" inputMode="numeric" min={1} {...text('dim_y')} />
        </div>
        <fieldset className={styles.commission} aria-describedby={commissionHint}>
          <legend>Commission (coins)</legend>
          <div className={styles.row}>
            {(['impression', 'click', 'complete'] as const).map((key) => (
              <TextField
                key={key}
                label={`Per ${COMMISSION_LABEL[key].toLowerCase()}`}
                type="number"
                inputMode="numeric"
                min={0}
                max={AD.commissionMax}
                {...text(key)}
              />
            ))}
          </div>
          <FieldError message={shown('commission')} />
          <p id={commissionHint} className={styles.hint}>
            What the broadcaster earns for each counted activity of a viewer, 0 to {AD.commissionMax.toLocaleString('en-US')} coins.
          </p>
        </fieldset>
        <CreativeField
          type={type}
          file={file}
          current={offer?.thumbnail}
          onDuration={setSeconds}
          onFile={(chosen) => {
            setFile(chosen);
            setSeconds(null);
            setServerErrors((e) => ({ ...e, upload_id: undefined }));
          }}
          error={shown('upload_id')}
          disabled={busy}
        />
      </fieldset>
      {(phase === 'uploading' || queue.files.length > 0) && <UploadProgress queue={queue} />}
      <div className={styles.submit}>
        <Alert>{failure}</Alert>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={busy}>
          {phase === 'uploading' ? 'Uploading…' : phase === 'saving' ? 'Saving…' : offer ? 'Save changes' : 'Create offer'}
        </Button>
      </div>
    </form>
  );
}
