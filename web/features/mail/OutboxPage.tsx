import { useState } from 'react';
import { relativeTime } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { MailIcon, RefreshIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useOutbox } from './api';
import styles from './OutboxPage.module.css';

/** /dev/outbox (administrators): how a person running the embedded default reads the mail it "sent". */
export function OutboxPage() {
  const [to, setTo] = useState('');
  const [filter, setFilter] = useState('');
  const outbox = useOutbox(filter);
  const messages = outbox.data?.messages ?? [];

  return (
    <Page
      title="Outbox"
      aside={
        <Button variant="secondary" size="sm" icon={<RefreshIcon size={16} />} loading={outbox.isFetching} onClick={() => void outbox.refetch()}>
          Refresh
        </Button>
      }
    >
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
      </form>
      {outbox.isPending && <Spinner label="Loading mail" size="lg" />}
      <Alert>{outbox.isError && failureMessage(outbox.error)}</Alert>
      {outbox.isSuccess && messages.length === 0 && <EmptyState icon={<MailIcon />}>No mail yet.</EmptyState>}
      {messages.length > 0 && (
        <div className={styles.scroller}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Sent</th>
                <th scope="col">Text</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((message) => (
                <tr key={message.id}>
                  <td className={styles.to}>{message.to}</td>
                  <td className={styles.subject}>{message.subject}</td>
                  <td className={styles.time}>
                    <time dateTime={message.created_at} title={new Date(message.created_at).toLocaleString()}>
                      {relativeTime(message.created_at)}
                    </time>
                  </td>
                  <td>
                    <pre className={styles.text}>{message.text}</pre>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
