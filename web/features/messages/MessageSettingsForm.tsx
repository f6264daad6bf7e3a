/**
 * "Who can message you" (decision 0086): everyone, followers or subscribers (conversations already open stay
 * open), and whether the messages creators send to all their followers or subscribers at once arrive.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { MSG } from '../../../common/messages';
import { MESSAGE_AUDIENCES } from '../../../common/rules/messages';
import type { MessageAudience } from '../../../common/rules/messages';
import type { MessageSettings } from '../../../common/api/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { ChoiceCards } from '../../ui/ChoiceCards';
import { Spinner } from '../../ui/Spinner';
import { Switch } from '../../ui/Switch';
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
  return <SettingsForm saved={settings.data} />;
}

function SettingsForm({ saved }: { saved: MessageSettings }) {
  const save = useSaveMessageSettings();
  const toast = useToast();
  const [audience, setAudience] = useState<MessageAudience>(saved.audience);
  const [bulk, setBulk] = useState(saved.bulk);
  const changed = audience !== saved.audience || bulk !== saved.bulk;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ audience, bulk }, {
      onSuccess: () => toast({ title: MSG.messageSettingsSaved, tone: 'success' }),
      onError: (error) => toast({ title: failureMessage(error), tone: 'error' }),
    });
  };
  return (
    <form className={form.form} onSubmit={submit} aria-label={FORM_NAME} noValidate>
      <ChoiceCards
        name="message-audience"
        legend={<span className="visually-hidden">{FORM_NAME}</span>}
        choices={MESSAGE_AUDIENCES.map((value) => ({ value, ...CHOICES[value] }))}
        value={audience}
        onChange={setAudience}
      />
      <Switch
        label="Receive messages creators send to all their followers or subscribers"
        description="Creators you follow or subscribe to sometimes write to all their fans at once. Each such message arrives in your conversation with the creator."
        checked={bulk}
        onCheckedChange={setBulk}
      />
      <div className={styles.footer}>
        <Button type="submit" loading={save.isPending} disabled={!changed && !save.isError}>
          Save
        </Button>
      </div>
    </form>
  );
}
