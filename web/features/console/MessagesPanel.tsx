/**
 * System messages: write one (title, HTML, how often, locale, optional start and end), see which are
 * scheduled, shown and retired, retire one now. Users see them in the server notification modal.
 */
import { useState } from 'react';
import { console as consoleApi } from '../../../common/api/calls';
import type { ConsoleMessage } from '../../../common/api/console';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { MegaphoneIcon } from '../../ui/icons';
import prose from '../../ui/prose.module.css';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { safeHtml } from '../system';
import { useConsoleAction, useConsoleMessages } from './api';
import styles from './Console.module.css';

const stateOf = (m: ConsoleMessage, now = Date.now()) =>
  m.ends_at && new Date(m.ends_at).getTime() <= now ? 'retired' : m.starts_at && new Date(m.starts_at).getTime() > now ? 'scheduled' : 'shown';

/** A datetime-local value as an ISO time in the browser's zone; empty: none. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

export function MessagesPanel() {
  const messages = useConsoleMessages();
  const create = useConsoleAction(consoleApi.createSystemMessage);
  const retire = useConsoleAction(consoleApi.retireSystemMessage);
  const [draft, setDraft] = useState({ title: '', content: '', frequency: 'once' as 'once' | 'always', locale: 'en', starts: '', ends: '' });
  const rows = messages.data?.messages ?? [];
  const field = (name: keyof typeof draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: e.target.value }));

  return (
    <>
      <form
        className={styles.form}
        aria-label="New system message"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { title: draft.title, content: draft.content, frequency: draft.frequency, locale: draft.locale, starts_at: isoOf(draft.starts), ends_at: isoOf(draft.ends) },
            { onSuccess: () => setDraft((d) => ({ ...d, title: '', content: '', starts: '', ends: '' })) },
          );
        }}
      >
        <TextField label="Title" value={draft.title} onChange={field('title')} maxLength={200} required />
        <Select label="Show" value={draft.frequency} options={[{ value: 'once', label: 'Once per user' }, { value: 'always', label: 'Every visit' }]} onChange={field('frequency')} />
        <TextField label="Locale" value={draft.locale} onChange={field('locale')} maxLength={2} hint="Two letters, such as en" />
        <TextField label="Starts" type="datetime-local" value={draft.starts} onChange={field('starts')} hint="Empty: now. Later: scheduled." />
        <TextField label="Ends" type="datetime-local" value={draft.ends} onChange={field('ends')} hint="Empty: until retired." />
        <div className={styles.full}>
          <TextArea label="Content (HTML)" value={draft.content} onChange={field('content')} rows={4} maxLength={20_000} required />
        </div>
        <div className={styles.full}>
          <Alert>{create.isError && failureMessage(create.error)}</Alert>
          <Button type="submit" loading={create.isPending}>Create message</Button>
        </div>
      </form>
      {messages.isPending && <Spinner label="Loading messages" size="lg" />}
      <Alert>{(messages.isError && failureMessage(messages.error)) || (retire.isError && failureMessage(retire.error))}</Alert>
      {messages.isSuccess && rows.length === 0 && <EmptyState icon={<MegaphoneIcon />}>No system messages yet.</EmptyState>}
      {rows.length > 0 && (
        <DataTable
          rows={rows}
          rowKey={(m) => m.id}
          columns={[
            { header: 'Title', cell: (m) => <strong>{m.title}</strong>, className: () => styles.wrap },
            { header: 'Content', cell: (m) => <div className={prose.prose} dangerouslySetInnerHTML={{ __html: safeHtml(m.content) }} />, className: () => styles.wrap },
            { header: 'Locale', cell: (m) => m.locale },
            { header: 'Show', cell: (m) => m.frequency },
            {
              header: 'Shown',
              cell: (m) => (
                <>
                  from {new Date(m.starts_at ?? m.created_at).toLocaleString()}
                  <div className={styles.muted}>{m.ends_at ? `until ${new Date(m.ends_at).toLocaleString()}` : 'until retired'}</div>
                </>
              ),
            },
            { header: 'State', cell: (m) => <span className={styles.badge}>{stateOf(m)}</span> },
            {
              header: '',
              cell: (m) => stateOf(m) !== 'retired' && <Button size="sm" variant="secondary" disabled={retire.isPending} onClick={() => retire.mutate({ id: m.id })}>Retire</Button>,
            },
          ]}
        />
      )}
    </>
  );
}
