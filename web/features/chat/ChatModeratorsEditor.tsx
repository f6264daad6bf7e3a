/**
 * The people a broadcaster appoints to moderate the chat of their streams (decision 0083): added by
 * username, removed from the list. They delete lines, time out and ban viewers, approve held lines and set
 * the chat rules from the stream's chat.
 */
import { useState, type FormEvent } from 'react';
import { fill, MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { Section } from '../../ui/Page';
import rows from '../../ui/RowList.module.css';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useChangeChatModerators, useChatModerators } from './moderators-api';
import styles from './ChatRulesEditor.module.css';

export function ChatModeratorsEditor() {
  const moderators = useChatModerators();
  const change = useChangeChatModerators();
  const toast = useToast();
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | undefined>();

  function add(event: FormEvent) {
    event.preventDefault();
    const name = username.trim().replace(/^@/, '');
    if (name === '') return setError(MSG.usernameRequired);
    change.mutate({ add: name }, {
      onSuccess: (list) => {
        setUsername('');
        const added = list.find((m) => m.username.toLowerCase() === name.toLowerCase());
        toast({ title: fill(MSG.moderatorAdded, { name: added?.name ?? name }), tone: 'success' });
      },
      onError: (failure) => setError(failureMessage(failure)),
    });
  }

  return (
    <Section title="Chat moderators" description="People you trust to keep your chat civil: they can delete messages, time out and ban viewers, approve held messages and change the chat rules.">
      <div className={styles.form}>
        {moderators.isPending ? <Spinner /> : moderators.isError ? <Alert>{failureMessage(moderators.error)}</Alert> : moderators.data.length === 0 ? (
          <p className={rows.empty}>No moderators yet.</p>
        ) : (
          <ul className={rows.list} aria-label="Chat moderators">
            {moderators.data.map((moderator) => (
              <li key={moderator.user_id} className={rows.row}>
                <Avatar name={moderator.name} src={moderator.avatar} size={28} />
                <span>
                  {moderator.name} <span className={styles.username}>@{moderator.username}</span>
                </span>
                <Button variant="secondary" size="sm" onClick={() => change.mutate({ remove: moderator.user_id })} aria-label={`Remove ${moderator.name}`}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form className={styles.addRow} onSubmit={add} noValidate aria-label="Add a chat moderator">
          <TextField
            label="Username"
            value={username}
            error={error}
            autoComplete="off"
            onChange={(event) => {
              setUsername(event.target.value);
              setError(undefined);
            }}
          />
          <Button type="submit" loading={change.isPending}>Add moderator</Button>
        </form>
      </div>
    </Section>
  );
}
