/**
 * /user/statements?month=YYYY-MM: a creator's monthly statement (decision 0062), printable (print CSS
 * keeps the statement alone on the page) and downloadable as CSV; the year's summary below it.
 */
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { TRANSFER_KIND_LABELS } from '../../../common/api/wallet';
import type { Statement } from '../../../common/api/statements';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, buttonClass } from '../../ui/Button';
import { DownloadIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { Amount } from './Amount';
import { statementCsvHref, useStatement } from './api';
import { currentMonth, monthParam, monthTitle, shiftMonth } from './months';
import { YearSummary } from './YearSummary';
import styles from './statements.module.css';

const label = (kind: string) => TRANSFER_KIND_LABELS[kind as keyof typeof TRANSFER_KIND_LABELS] ?? kind;

export function StatementPage() {
  const [query, setQuery] = useSearchParams();
  const month = monthParam(query.get('month'));
  const statement = useStatement(month);
  const go = (delta: number) => setQuery({ month: shiftMonth(month, delta) });
  return (
    <Page
      title="Statements"
      aside={
        <div className={styles.toolbar}>
          <Button variant="secondary" size="sm" onClick={() => go(-1)} aria-label="Previous month">‹</Button>
          <strong className={styles.monthName}>{monthTitle(month)}</strong>
          <Button variant="secondary" size="sm" onClick={() => go(1)} disabled={month >= currentMonth()} aria-label="Next month">›</Button>
          <Button variant="secondary" size="sm" onClick={() => window.print()}>Print</Button>
          <a className={buttonClass({ variant: 'secondary', size: 'sm' })} href={statementCsvHref(month)} download>
            <DownloadIcon size={16} /> Download CSV
          </a>
        </div>
      }
    >
      {statement.isPending ? <Spinner label="Loading your statement" />
        : statement.isError ? <Alert>{failureMessage(statement.error)}</Alert>
        : <StatementSheet statement={statement.data} />}
      <div className={styles.noPrint}>
        <YearSummary year={Number(month.slice(0, 4))} />
        <p className={styles.aside}>Payouts wait for your <SkinLink to="/user/tax-info">tax information</SkinLink>.</p>
      </div>
    </Page>
  );
}

function StatementSheet({ statement: s }: { statement: Statement }) {
  const asOf = new Date(s.as_of);
  const open = asOf < new Date(s.to);
  return (
    <article className={styles.sheet} aria-label={`Statement ${monthTitle(s.month)}`}>
      <header className={styles.sheetHeader}>
        <div>
          <h2>Statement — {monthTitle(s.month)}</h2>
          <p>{s.username}{open ? ` · up to ${asOf.toUTCString()}` : ''} · {s.coins_per_usd} coins = 1 US dollar · times in UTC</p>
        </div>
      </header>
      <table className={styles.table}>
        <tbody>
          <Row label="Opening balance" coins={s.opening_balance} strong />
        </tbody>
        <Group title="Earnings">
          {s.earnings.length === 0 && <tr><td colSpan={3} className={styles.none}>No earnings this month.</td></tr>}
          {s.earnings.map((e) => <Row key={e.kind} label={label(e.kind)} detail={`${e.transfers} × · fee ${formatCoins(e.fees)}`} coins={e.gross} sign="+" />)}
          <Row label="Earnings (gross)" coins={s.totals.gross} sign="+" strong />
          <Row label="Platform fees" coins={s.totals.fees} sign="−" />
        </Group>
        <Group title="Payouts">
          {s.payouts.length === 0 && <tr><td colSpan={3} className={styles.none}>No payouts this month.</td></tr>}
          {/* A month where more came back than left (a payout returned later) shows the payouts as coins in. */}
          {s.payouts.map((p) => <Row key={p.kind} label={label(p.kind)} detail={`${p.transfers} ×`} coins={Math.abs(p.coins)} sign={p.coins >= 0 ? '−' : '+'} />)}
        </Group>
        <Group title="Other wallet activity">
          {s.other.length === 0 && <tr><td colSpan={3} className={styles.none}>Nothing else moved.</td></tr>}
          {s.other.map((o) => <Row key={o.kind} label={label(o.kind)} detail={`${o.transfers} ×`} coins={Math.abs(o.coins_in - o.coins_out)} sign={o.coins_in >= o.coins_out ? '+' : '−'} />)}
        </Group>
        <tbody>
          <Row label="Closing balance" coins={s.closing_balance} strong />
        </tbody>
      </table>
    </article>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <tbody>
      <tr><th colSpan={3} scope="colgroup" className={styles.group}>{title}</th></tr>
      {children}
    </tbody>
  );
}

function Row({ label: name, detail, coins, sign = '', strong = false }: { label: string; detail?: string; coins: number; sign?: '−' | '+' | ''; strong?: boolean }) {
  return (
    <tr className={strong ? styles.strong : undefined}>
      <th scope="row">{name}</th>
      <td className={styles.detail}>{detail}</td>
      <td className={styles.figure}><Amount coins={coins} sign={sign} /></td>
    </tr>
  );
}
