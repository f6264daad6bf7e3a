/** /user/account: balances, then the wallet history 20 a page (spec part 1 §2 wallet routes, §3 balance). */
import { useState } from 'react';
import type { z } from 'zod';
import { TRANSFER_KIND_LABELS } from '../../../common/api/wallet';
import type { walletTransfer } from '../../../common/api/wallet';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { CoinIcon, ImageIcon, PlusIcon, WalletIcon } from '../../ui/icons';
import { Page, Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { fill, MSG } from '../../../common/messages';
import { TRANSFERS_PAGE, useBalance, useTransfers, useWalletHold } from './api';
import { formatCents, formatCoins, formatImpressions, signedAmount } from '../../../common/rules/wallet-amounts';
import styles from './wallet.module.css';

export function WalletPage() {
  const skinPath = useSkinPath();
  return (
    <Page
      title="Wallet"
      aside={
        <div className={styles.pageActions}>
          <ButtonLink to={skinPath('/user/account/deposit-coins')} icon={<CoinIcon size={18} />}>
            Buy Coins
          </ButtonLink>
          <ButtonLink to={skinPath('/user/account/buy-impressions')} variant="secondary" icon={<ImageIcon size={18} />}>
            Buy Impressions
          </ButtonLink>
          <ButtonLink to={skinPath('/user/account/add-credit-card')} variant="secondary" icon={<PlusIcon size={18} />}>
            Add a Card
          </ButtonLink>
          <ButtonLink to={skinPath('/user/statements')} variant="secondary">
            Statements
          </ButtonLink>
          <ButtonLink to={skinPath('/user/account/earnings')} variant="secondary" icon={<WalletIcon size={18} />}>
            Earnings
          </ButtonLink>
        </div>
      }
    >
      <HoldNotice />
      <Balances />
      <Section title="History" description="Every coin, impression and dollar that moved in or out of your wallet.">
        <History />
      </Section>
    </Page>
  );
}

/** Why the wallet cannot spend or withdraw, while it cannot (decision 0057). */
function HoldNotice() {
  const hold = useWalletHold().data;
  if (!hold?.on_hold) return null;
  return (
    <div className={styles.hold} role="status" aria-label={MSG.walletHeldTitle}>
      <strong>{MSG.walletHeldTitle}</strong>
      {hold.coins_owed > 0 && <p>{fill(MSG.walletOnHoldDebt, { coins: formatCoins(hold.coins_owed) })}</p>}
      {hold.open_disputes > 0 && <p>{MSG.walletOnHoldDispute}</p>}
      <p>{MSG.walletHeldRules}</p>
    </div>
  );
}

function Balances() {
  const balance = useBalance();
  if (balance.isError) return <Alert>{failureMessage(balance.error)}</Alert>;
  const b = balance.data;
  const tiles = [
    { label: 'Coins', value: b && formatCoins(b.CON), strong: true },
    { label: 'Impressions', value: b && formatImpressions(b.IMP) },
    { label: 'US dollars', value: b && formatCents(b.USD, 'USD') },
    { label: 'Canadian dollars', value: b && formatCents(b.CAD, 'CAD') },
  ];
  return (
    <ul className={styles.balances} aria-label="Balances" aria-busy={balance.isPending || undefined}>
      {tiles.map((tile) => (
        <li key={tile.label} className={`${styles.balance} ${tile.strong ? styles.balanceStrong : ''}`}>
          <span className={styles.balanceLabel}>{tile.label}</span>
          {tile.value ? <strong className={styles.balanceValue}>{tile.value}</strong> : <span className={styles.skeleton} />}
        </li>
      ))}
    </ul>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function History() {
  const [offset, setOffset] = useState(0);
  const transfers = useTransfers(offset);
  if (transfers.isPending) return <Spinner label="Loading your history" />;
  if (transfers.isError) return <Alert>{failureMessage(transfers.error)}</Alert>;
  const { transfers: rows, total } = transfers.data;
  if (total === 0) {
    return (
      <EmptyState icon={<WalletIcon size={40} />} action={<SkinLink to="/user/account/deposit-coins">Buy your first coins</SkinLink>}>
        Nothing has moved yet.
      </EmptyState>
    );
  }
  const page = Math.floor(offset / TRANSFERS_PAGE) + 1;
  const pages = Math.max(1, Math.ceil(total / TRANSFERS_PAGE));
  return (
    <>
      <DataTable
        rows={rows}
        rowKey={(row) => `${row.transfer_id}-${row.currency}`}
        busy={transfers.isPlaceholderData}
        accentLinks
        columns={[
          { header: 'Type', cell: (row) => TRANSFER_KIND_LABELS[row.kind] },
          { header: 'Amount', cell: (row) => signedAmount(row.amount, row.currency), numeric: true, className: (row) => (row.amount < 0 ? styles.out : styles.in) },
          { header: 'With', cell: (row) => <TransferParties row={row} /> },
          { header: 'Date', cell: (row) => <time dateTime={row.created_at}>{dateFormat.format(new Date(row.created_at))}</time> },
        ]}
      />
      {pages > 1 && (
        <nav className={styles.pager} aria-label="History pages">
          <Button variant="secondary" size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - TRANSFERS_PAGE))}>
            Newer
          </Button>
          <span className={styles.muted}>
            Page {page} of {pages}
          </span>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setOffset(offset + TRANSFERS_PAGE)}>
            Older
          </Button>
        </nav>
      )}
    </>
  );
}

/** Who the money moved with, and the stream it moved on. */
function TransferParties({ row }: { row: z.infer<typeof walletTransfer> }) {
  return (
    <>
      {row.counterparty ? <SkinLink to={`/u/${row.counterparty.user_id}`}>{row.counterparty.username}</SkinLink> : <span className={styles.muted}>—</span>}
      {row.stream_id !== null && (
        <>
          {' '}
          <SkinLink to={`/streams/stream-view?id=${row.stream_id}`} className={styles.muted}>
            (stream)
          </SkinLink>
        </>
      )}
    </>
  );
}
