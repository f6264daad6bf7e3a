import { useState } from 'react';
import type { FormEvent } from 'react';
import { streams } from '../../../common/api';
import { AUDIENCES } from '../../../common/api/streams';
import type { StreamInfo } from '../../../common/api/streams';
import { failureMessage, hasErrors, schemaErrors } from '../../api/field-errors';
import { useSkin } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { Select } from '../../ui/Select';
import { Switch } from '../../ui/Switch';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { useSession } from '../accounts/api';
import { useUpdateStream } from './api';
import { AUDIENCE_LABEL, RATING_LABEL, allowedRatings } from './rating-options';
import styles from './StreamInfoModal.module.css';

const AUDIENCE_OPTIONS = AUDIENCES.map((a) => ({ value: a, label: AUDIENCE_LABEL[a] }));

interface StreamInfoModalProps {
  stream: StreamInfo;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'setup' (dashboard): every field; 'edit' (stream page owner): audience and title. */
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
    title: stream.ready ? stream.title : '',
    description: stream.description,
    audience: stream.audience,
    rating: stream.rating,
    chat_enabled: stream.chat_enabled,
  }));
  const [touched, setTouched] = useState(false);
  const ratings = allowedRatings(user?.perms ?? [], skin.flags.adultContent);
  const data = mode === 'setup' ? values : { title: values.title, audience: values.audience };
  const errors = schemaErrors(streams.updateStreamInfo.input, { id: stream.stream_id, data }, 'data');
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (hasErrors(errors)) return;
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
          />
          <Switch label="Chat enabled" description="Viewers can chat while you stream." checked={values.chat_enabled} onCheckedChange={(on) => set('chat_enabled', on)} />
        </>
      )}
      <Alert>{update.isError ? failureMessage(update.error) : null}</Alert>
      <div className={styles.actions}>
        <Button type="submit" loading={update.isPending} disabled={hasErrors(errors)}>
          Save
        </Button>
      </div>
    </form>
  );
}
