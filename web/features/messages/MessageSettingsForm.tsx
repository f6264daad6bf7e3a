/** "Who can message you" (decision 0086): everyone, followers or subscribers; conversations already open stay open. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { MSG } from '../../../common/messages';
import { MESSAGE_AUDIENCES } from '../../../common/rules/messages';
import type { MessageAudience } from '../../../common/rules/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import form from '../../ui/form.module.css';
import { useMessageSettings, useSaveMessageSettings } from './api';
import styles from './MessageSettings.module.css';

const CHOICES: Record<MessageAudience, { label: string; description: string }> = {
  everyone: { label: 'Everyone', description: 'Anyone with an account can start a conversation with you.' },
  followers: { label: 'Followers', description: 'Only people who follow you.' },
  subscribers: { label: 'Subscribers', description: 'Only your subscribers.' },
};

const FORM_NAME = 'Who can message you';

export function MessageSettingsForm() {
  const settings = useMessageSettings();
  if (settings.isError) return <Alert>{failureMessage(settings.error)}</Alert>;
  if (!settings.data) return <Spinner label="Loading your message settings" />;
  return <AudienceForm saved={settings.data.audience} />;
}

function AudienceForm({ saved }: { saved: MessageAudience }) {
  const save = useSaveMessageSettings();
  const toast = useToast();
  const [audience, setAudience] = useState<MessageAudience>(saved);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(audience, {
      onSuccess: () => toast({ title: MSG.messageSettingsSaved, tone: 'success' }),
      onError: (error) => toast({ title: failureMessage(error), tone: 'error' }),
    });
  };
  return (
    <form className={form.form} onSubmit={submit} aria-label={FORM_NAME} noValidate>
      <fieldset className={styles.choices}>
        <legend className="visually-hidden">{FORM_NAME}</legend>
        {MESSAGE_AUDIENCES.map((value) => (
          <label key={value} className={`${styles.choice} ${audience === value ? styles.chosen : ''}`}>
            <input type="radio" name="message-audience" value={value} checked={audience === value} onChange={() => setAudience(value)} />
            <span>
              <strong>{CHOICES[value].label}</strong>
              <small className={styles.description}>{CHOICES[value].description}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <div className={styles.footer}>
        <Button type="submit" loading={save.isPending} disabled={audience === saved && !save.isError}>
          Save
        </Button>
      </div>
    </form>
  );
}
