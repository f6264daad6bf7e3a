/** The spec's subscription table and how its dates read (spec part 2 §9: 5 rows a page). */
import type { ReactNode } from 'react';
import type { Subscription } from '../../../common/api/subscriptions';
import { PAGE_SIZE } from '../../../common/constants';
import { DataTable } from '../../ui/DataTable';
import styles from './subscriptions.module.css';

export const PAGE = PAGE_SIZE.subscriptions;

export const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
export const day = (iso: string) => <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;
const STATE_LABELS: Record<Subscription['state'], string> = { enabled: 'Active', cancelled: 'Cancelled', deleted: 'Plan withdrawn' };

/**
 * The spec's subscription table: Package, Price, State, Begin Date, End Date, Renewal Type, and Actions
 * where the viewer may act. `party` fills the Package cell (the plan and the other party).
 */
export function SubscriptionTable({ label, rows, busy, party, actions }: {
  label: string;
  rows: Subscription[];
  busy: boolean;
  party: (s: Subscription) => ReactNode;
  actions?: (s: Subscription) => ReactNode;
}) {
  return (
    <DataTable
      label={label}
      rows={rows}
      rowKey={(s) => s.subscription_id}
      busy={busy}
      accentLinks
      columns={[
        { header: 'Package', cell: party },
        { header: 'Price', cell: (s) => s.price_formatted, numeric: true },
        { header: 'State', cell: (s) => <span className={`${styles.state} ${styles[`state_${s.state}`]}`}>{STATE_LABELS[s.state]}</span> },
        { header: 'Begin Date', cell: (s) => day(s.begin_date) },
        { header: 'End Date', cell: (s) => day(s.end_date) },
        { header: 'Renewal Type', cell: (s) => (s.auto_renew ? `${s.period_label}, automatic` : `${s.period_label}, manual`) },
        actions ? { header: 'Actions', cell: actions, className: () => styles.actions } : false,
      ]}
    />
  );
}
