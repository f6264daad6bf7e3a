/**
 * A broadcaster's emotes (decision 0084): each a picture and a code; subscribers whose plan reaches its
 * level write it as `:code:` in any chat, and everyone sees the picture. The server checks the picture by
 * its content; the checks here only save a trip.
 */
import { useState, type FormEvent } from 'react';
import { EMOTE_CODE, EMOTES } from '../../../common/rules/emotes';
import { fill, MSG } from '../../../common/messages';
import { failureMessage, serverFieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Section } from '../../ui/Page';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useChangeEmotes, useEmotes } from './emotes-api';
import styles from './ChatRulesEditor.module.css';

const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';
const LEVELS = [
  { value: '1', label: 'Any subscriber' },
  { value: '2', label: 'Subscribers of level 2 plans and up' },
  { value: '3', label: 'Subscribers of level 3 plans' },
];
const levelLabel = (level: number) => LEVELS.find((l) => Number(l.value) === level)?.label ?? `Level ${level} plans and up`;

export function EmotesEditor({ userId }: { userId: number }) {
  const emotes = useEmotes(userId);
  const change = useChangeEmotes(userId);
  const toast = useToast();
  // A new key clears the file field after an upload.
  const [fileField, setFileField] = useState(0);
  const [code, setCode] = useState('');
  const [level, setLevel] = useState('1');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ code?: string; file?: string }>({});

  function add(event: FormEvent) {
    event.preventDefault();
    const problems = {
      ...(EMOTE_CODE.test(code) ? {} : { code: MSG.emoteCodeShape }),
      ...(!file || !ACCEPT.split(',').includes(file.type) ? { file: MSG.notAnImage } : file.size > EMOTES.maxBytes ? { file: MSG.emoteTooBig } : {}),
    };
    setErrors(problems);
    if (Object.keys(problems).length > 0 || !file) return;
    change.mutate({ add: { code, minPlanLevel: Number(level), file } }, {
      onSuccess: () => {
        toast({ title: fill(MSG.emoteAdded, { code }), tone: 'success' });
        setCode('');
        setFile(null);
        setFileField((n) => n + 1);
      },
      onError: (failure) => {
        const fields = serverFieldErrors(failure);
        setErrors(fields.code || fields.file ? { code: fields.code, file: fields.file } : { code: failureMessage(failure) });
      },
    });
  }

  return (
    <Section title="Emotes" description={`Pictures your subscribers write as :code: in any chat; everyone sees them. Up to ${EMOTES.perBroadcaster}.`}>
      <div className={styles.form}>
        {emotes.isPending ? <Spinner /> : emotes.isError ? <Alert>{failureMessage(emotes.error)}</Alert> : emotes.data.length === 0 ? (
          <p className={styles.username}>No emotes yet.</p>
        ) : (
          <ul className={styles.emotes} aria-label="Your emotes">
            {emotes.data.map((emote) => (
              <li key={emote.code} className={styles.emoteCard}>
                <img src={emote.url} alt="" width={56} height={56} />
                <strong>:{emote.code}:</strong>
                <span className={styles.username}>{levelLabel(emote.min_plan_level)}</span>
                <Button variant="secondary" size="sm" onClick={() => change.mutate({ remove: emote.code })} aria-label={`Remove :${emote.code}:`}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form className={styles.form} onSubmit={add} noValidate aria-label="Add an emote">
          <div className={styles.choices}>
            <TextField label="Code" hint="3 to 20 lower-case letters and digits" value={code} error={errors.code} autoComplete="off" onChange={(event) => setCode(event.target.value.trim())} />
            <Select label="Who can use it" value={level} onChange={(event) => setLevel(event.target.value)} options={LEVELS} />
          </div>
          <TextField
            key={fileField}
            label="Picture"
            type="file"
            accept={ACCEPT}
            hint="JPEG, PNG, WebP or GIF, up to 1 MB; shown square."
            error={errors.file}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
          <div>
            <Button type="submit" loading={change.isPending}>Add emote</Button>
          </div>
        </form>
      </div>
    </Section>
  );
}
