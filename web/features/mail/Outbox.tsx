/** The mail outbox, one screen in two places: the console's Outbox tab and /dev/outbox. */
import { useState } from 'react';
import { relativeTime } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { MailIcon, RefreshIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useOutbox } from './api';
import type { OutboxSource } from './api';
import styles from './Outbox.module.css';

export function Outbox({ source }: { source: OutboxSource }) {
  const [to, setTo] = useState('');
  const [filter, setFilter] = useState('');
  const outbox = useOutbox(source, filter);
  const messages = outbox.data?.messages ?? [];
  return (
    <>
      {outbox.data?.transport === 'smtp' && (
        <Alert tone="info">Mail goes out over SMTP on this installation; the outbox only shows what was kept before.</Alert>
      )}
      {outbox.data?.transport === 'none' && (
        <Alert tone="error">No mail can be sent: this installation has no SMTP_URL. Messages are listed, their texts are not kept.</Alert>
      )}
      <form
        className={styles.filter}
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(to.trim());
        }}
      >
        <TextField label="Recipient" type="search" placeholder="name@example.com" value={to} onChange={(e) => setTo(e.target.value)} maxLength={254} />
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        <Button type="button" variant="ghost" icon={<RefreshIcon size={16} />} loading={outbox.isFetching} onClick={() => void outbox.refetch()}>
          Refresh
        </Button>
      </form>
      {outbox.isPending && <Spinner label="Loading mail" size="lg" />}
      <Alert>{outbox.isError && failureMessage(outbox.error)}</Alert>
      {outbox.isSuccess && messages.length === 0 && <EmptyState icon={<MailIcon />}>No mail yet.</EmptyState>}
      {messages.length > 0 && (
        <DataTable
          label="Mail"
          rows={messages}
          rowKey={(message) => message.id}
          columns={[
            { header: 'To', cell: (message) => message.to },
            { header: 'Subject', cell: (message) => message.subject, className: () => styles.subject },
            {
              header: 'Sent',
              cell: (message) => (
                <time dateTime={message.created_at} title={new Date(message.created_at).toLocaleString()}>
                  {relativeTime(message.created_at)}
                </time>
              ),
              className: () => styles.time,
            },
            { header: 'Text', cell: (message) => <pre className={styles.text}>{message.text}</pre> },
          ]}
        />
      )}
    </>
  );
}
