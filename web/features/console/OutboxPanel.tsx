/** The mail outbox inside the console (the same data as /dev/outbox). */
import { useState } from 'react';
import { relativeTime } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import table from '../../ui/DataTable.module.css';
import { EmptyState } from '../../ui/EmptyState';
import { MailIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useConsoleOutbox } from './api';
import styles from './Console.module.css';

export function OutboxPanel() {
  const [to, setTo] = useState('');
  const [filter, setFilter] = useState('');
  const outbox = useConsoleOutbox(filter);
  const messages = outbox.data?.messages ?? [];
  return (
    <>
      {outbox.data?.transport === 'smtp' && <Alert tone="info">Mail goes out over SMTP here; the outbox keeps a copy of each message.</Alert>}
      <form className={styles.toolbar} role="search" onSubmit={(e) => { e.preventDefault(); setFilter(to.trim()); }}>
        <TextField label="Recipient" type="search" placeholder="name@example.com" value={to} onChange={(e) => setTo(e.target.value)} maxLength={254} />
        <Button type="submit" variant="secondary">Filter</Button>
      </form>
      {outbox.isPending && <Spinner label="Loading mail" size="lg" />}
      <Alert>{outbox.isError && failureMessage(outbox.error)}</Alert>
      {outbox.isSuccess && messages.length === 0 && <EmptyState icon={<MailIcon />}>No mail yet.</EmptyState>}
      {messages.length > 0 && (
        <div className={table.tableWrap} tabIndex={0}>
          <table className={table.table}>
            <thead><tr><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Sent</th><th scope="col">Text</th></tr></thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id}>
                  <td>{m.to}</td>
                  <td className={styles.wrap}>{m.subject}</td>
                  <td>{relativeTime(m.created_at)}</td>
                  <td><pre className={styles.json}>{m.text}</pre></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
