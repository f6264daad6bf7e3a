/** Users: find by username or e-mail, open one, suspend or lift, grant or revoke permissions, change the role. */
import { useState } from 'react';
import { console as consoleApi } from '../../../common/api/calls';
import { SUSPENSION_DAYS } from '../../../common/console';
import { MSG } from '../../../common/messages';
import { PERMISSIONS, ROLES, type Permission, type Role } from '../../../common/permissions';
import { relativeTime } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { LoadMore } from '../../ui/LoadMore';
import { Modal } from '../../ui/Modal';
import { UsersIcon } from '../../ui/icons';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { useConsoleAction, useConsoleUser, useUsers } from './api';
import styles from './Console.module.css';

export function UsersPanel() {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [openId, setOpenId] = useState<number | null>(null);
  const found = useUsers(query);
  const rows = found.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <>
      <form className={styles.toolbar} role="search" onSubmit={(e) => { e.preventDefault(); setQuery(text.trim()); }}>
        <TextField label="Username or e-mail" type="search" value={text} onChange={(e) => setText(e.target.value)} maxLength={100} />
        <Button type="submit" variant="secondary">Search</Button>
      </form>
      {found.isPending && <Spinner label="Loading users" size="lg" />}
      <Alert>{found.isError && failureMessage(found.error)}</Alert>
      {found.isSuccess && rows.length === 0 && <EmptyState icon={<UsersIcon />}>No one matches.</EmptyState>}
      {rows.length > 0 && (
        <DataTable
          rows={rows}
          rowKey={(u) => u.user_id}
          footer={
            <>
              <p className={styles.muted}>{found.data?.pages[0]?.total} in all.</p>
              <LoadMore list={found} />
            </>
          }
          columns={[
            { header: 'Username', cell: (u) => `@${u.username}` },
            { header: 'E-mail', cell: (u) => u.email },
            { header: 'Role', cell: (u) => u.role },
            { header: 'Status', cell: (u) => u.status },
            { header: 'Joined', cell: (u) => relativeTime(u.joined) },
            { header: '', cell: (u) => <Button size="sm" variant="secondary" onClick={() => setOpenId(u.user_id)}>Open</Button> },
          ]}
        />
      )}
      {openId !== null && <UserDetail id={openId} />}
    </>
  );
}

function UserDetail({ id }: { id: number }) {
  const shown = useConsoleUser(id);
  const suspend = useConsoleAction(consoleApi.suspendUser);
  const lift = useConsoleAction(consoleApi.liftSuspension);
  const grant = useConsoleAction(consoleApi.grantPermission);
  const revoke = useConsoleAction(consoleApi.revokePermission);
  const role = useConsoleAction(consoleApi.changeRole);
  const [perm, setPerm] = useState<Permission>(PERMISSIONS[0]);
  const [suspending, setSuspending] = useState(false);
  const failed = [suspend, lift, grant, revoke, role].find((m) => m.isError);
  const u = shown.data?.user;
  if (!u) return shown.isPending ? <Spinner label="Loading user" /> : <Alert>{shown.isError && failureMessage(shown.error)}</Alert>;
  return (
    <section className={styles.detail} aria-label={`User ${u.username}`}>
      <h2>@{u.username}</h2>
      <div className={styles.muted}>
        {u.email} · {u.role} · {u.status} · joined {new Date(u.joined).toLocaleDateString()} · {u.counts.streams} streams · {u.counts.posts} posts · {u.counts.reports_against} {u.counts.reports_against === 1 ? 'report' : 'reports'} against them
      </div>
      <Alert>{failed?.error && failureMessage(failed.error)}</Alert>
      <div className={styles.toolbar}>
        {u.status === 'suspended'
          ? <Button variant="secondary" onClick={() => lift.mutate({ id })}>Lift suspension</Button>
          : <Button variant="danger" onClick={() => setSuspending(true)}>Suspend</Button>}
        <Select
          label="Role"
          value={u.role}
          options={ROLES.map((r) => ({ value: r, label: r }))}
          onChange={(e) => role.mutate({ id, role: e.target.value as Role })}
        />
      </div>
      <div>
        <strong>Permissions</strong>
        <div className={styles.perms}>
          {u.perms.length === 0 && <span className={styles.muted}>None</span>}
          {u.perms.map((p) => (
            <Button key={p} size="sm" variant="secondary" title="Revoke" onClick={() => revoke.mutate({ id, perm: p as Permission })}>{p} ✕</Button>
          ))}
        </div>
      </div>
      <div className={styles.toolbar}>
        <Select label="Permission" value={perm} options={PERMISSIONS.map((p) => ({ value: p, label: p }))} onChange={(e) => setPerm(e.target.value as Permission)} />
        <Button variant="secondary" onClick={() => grant.mutate({ id, perm })}>Grant</Button>
      </div>
      <SuspendDialog
        username={suspending ? u.username : null}
        pending={suspend.isPending}
        onCancel={() => setSuspending(false)}
        onSuspend={(terms) => suspend.mutate({ id, ...terms }, { onSuccess: () => setSuspending(false) })}
      />
    </section>
  );
}

const UNTIL_LIFTED = 'lifted';
const DURATIONS = [
  ...SUSPENSION_DAYS.map((days) => ({ value: String(days), label: days === 1 ? '1 day' : `${days} days` })),
  { value: UNTIL_LIFTED, label: 'Until lifted' },
];

/** Suspend: a confirmation with the reason the person is told at sign-in and how long it lasts (audited by the server). */
function SuspendDialog({ username, pending, onCancel, onSuspend }: {
  username: string | null;
  pending: boolean;
  onCancel: () => void;
  onSuspend: (terms: { reason: string; days: number | null }) => void;
}) {
  const [reason, setReason] = useState('');
  const [duration, setDuration] = useState<string>(String(SUSPENSION_DAYS[2]));
  const [tried, setTried] = useState(false);
  const missing = reason.trim() === '';
  const submit = () => {
    setTried(true);
    if (!missing) onSuspend({ reason: reason.trim(), days: duration === UNTIL_LIFTED ? null : Number(duration) });
  };
  return (
    <Modal
      open={username !== null}
      onOpenChange={(open) => !open && onCancel()}
      title="Suspend User"
      description={`Suspend @${username ?? ''}? They are signed out, cannot sign in until it ends, and their streams are hidden. They are told the reason when they try to sign in.`}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>Cancel</Button>
          <Button variant="danger" loading={pending} onClick={submit}>Suspend</Button>
        </>
      }
    >
      <form className={styles.detail} onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <TextArea label="Reason" value={reason} maxLength={300} rows={3} onChange={(e) => setReason(e.target.value)} error={tried && missing ? MSG.suspendReasonRequired : undefined} />
        <Select label="For" value={duration} options={DURATIONS} onChange={(e) => setDuration(e.target.value)} />
      </form>
    </Modal>
  );
}
