/**
 * Custom channels: an administrator names a channel, its rating and its broadcasters; the channel shows in
 * every visitor's channel selector (18+ ones only where the site shows adult content) and lists those
 * broadcasters' streams and posts. Removing one asks first.
 */
import { useState } from 'react';
import { console as consoleApi } from '../../../common/api/calls';
import type { CustomChannel } from '../../../common/api/console';
import { CUSTOM_CHANNEL } from '../../../common/constants';
import { RATING_LABEL } from '../../../common/rules/rating-labels';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { HashIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useConsoleAction, useCustomChannels } from './api';
import styles from './Console.module.css';

// From the labels, not the streams contract: the contract's schemas would weigh the console page down.
const RATING_OPTIONS = (Object.keys(RATING_LABEL) as Array<CustomChannel['rating']>).map((r) => ({ value: r, label: RATING_LABEL[r] }));

/** "ann, bob  carl" → ['ann', 'bob', 'carl']: names as typed, separated by commas or spaces. */
export const broadcasterNames = (typed: string) => typed.split(/[\s,]+/).map((n) => n.replace(/^@/, '')).filter(Boolean);

export function ChannelsPanel() {
  const list = useCustomChannels();
  const create = useConsoleAction(consoleApi.createCustomChannel);
  const remove = useConsoleAction(consoleApi.deleteCustomChannel);
  const skinPath = useSkinPath();
  const [draft, setDraft] = useState({ name: '', rating: 'G' as CustomChannel['rating'], broadcasters: '' });
  const [removing, setRemoving] = useState<CustomChannel | null>(null);
  const rows = list.data?.channels ?? [];

  return (
    <>
      <p className={styles.intro}>A custom channel lists the streams and posts of the broadcasters you name, in every visitor’s channel selector.</p>
      <form
        className={styles.form}
        aria-label="New custom channel"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { name: draft.name, rating: draft.rating, broadcasters: broadcasterNames(draft.broadcasters) },
            { onSuccess: () => setDraft({ name: '', rating: 'G', broadcasters: '' }) },
          );
        }}
      >
        <TextField label="Channel name" value={draft.name} onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} maxLength={CUSTOM_CHANNEL.nameMax} required />
        <Select label="Rating" value={draft.rating} options={RATING_OPTIONS} onChange={(e) => setDraft((d) => ({ ...d, rating: e.target.value as CustomChannel['rating'] }))} />
        <div className={styles.full}>
          <TextField
            label="Broadcasters"
            value={draft.broadcasters}
            onChange={(e) => setDraft((d) => ({ ...d, broadcasters: e.target.value }))}
            hint={`Usernames, separated by commas (at most ${CUSTOM_CHANNEL.broadcastersMax}).`}
            required
          />
        </div>
        <div className={styles.full}>
          <Alert>{create.isError && failureMessage(create.error)}</Alert>
          <Button type="submit" loading={create.isPending}>Create channel</Button>
        </div>
      </form>
      {list.isPending && <Spinner label="Loading channels" size="lg" />}
      <Alert>{(list.isError && failureMessage(list.error)) || (remove.isError && failureMessage(remove.error))}</Alert>
      {list.isSuccess && rows.length === 0 && <EmptyState icon={<HashIcon />}>No custom channels yet.</EmptyState>}
      {rows.length > 0 && (
        <DataTable
          label="Custom channels"
          rows={rows}
          rowKey={(c) => c.id}
          columns={[
            { header: 'Channel', cell: (c) => <a href={skinPath(c.link)}>{c.name}</a> },
            { header: 'Rating', cell: (c) => RATING_LABEL[c.rating] },
            { header: 'Broadcasters', cell: (c) => c.broadcasters.map((b) => `@${b.username}`).join(', '), className: () => styles.wrap },
            { header: '', cell: (c) => <Button size="sm" variant="secondary" disabled={remove.isPending} onClick={() => setRemoving(c)}>Remove</Button> },
          ]}
        />
      )}
      <Modal
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title="Remove channel"
        footer={
          <>
            <Button variant="secondary" onClick={() => setRemoving(null)}>Cancel</Button>
            <Button
              variant="danger"
              onClick={() => {
                if (removing) remove.mutate({ id: removing.id });
                setRemoving(null);
              }}
            >
              Remove
            </Button>
          </>
        }
      >
        Remove the channel “{removing?.name}”? Its broadcasters’ streams and posts stay; only the channel goes.
      </Modal>
    </>
  );
}
