/** A month's statement as CSV (RFC 4180): one line per figure, coins and their US dollars. */
import type { Statement } from '../../../common/api/statements';
import { TRANSFER_KIND_LABELS } from '../../../common/api/wallet';
import { coinsToUsdCents } from '../../../common/rules/wallet-amounts';

type Cell = string | number | null;

/**
 * One cell: numbers as written; text quoted when it holds a comma, a quote or a line break (quotes
 * doubled), and a text a spreadsheet would run as a formula (= + - @, tab, carriage return) led by an apostrophe.
 */
export function csvCell(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const safe = /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const csvLine = (cells: readonly Cell[]) => cells.map(csvCell).join(',');

const usd = (coins: number) => (coinsToUsdCents(coins) / 100).toFixed(2);
const label = (kind: string) => TRANSFER_KIND_LABELS[kind as keyof typeof TRANSFER_KIND_LABELS] ?? kind;

export const STATEMENT_CSV_HEADER = ['section', 'kind', 'description', 'transfers', 'coins', 'usd'] as const;

export function statementCsv(s: Statement): string {
  const row = (section: string, kind: string, description: string, transfers: number | null, coins: number) => [section, kind, description, transfers, coins, usd(coins)];
  const rows: Cell[][] = [
    row('opening', '', `Opening balance ${s.month}`, null, s.opening_balance),
    ...s.earnings.flatMap((e) => [row('earning', e.kind, `${label(e.kind)} (gross)`, e.transfers, e.gross), row('fee', e.kind, `Platform fee on ${label(e.kind)}`, null, -e.fees)]),
    ...s.payouts.map((p) => row('payout', p.kind, label(p.kind), p.transfers, -p.coins)),
    ...s.other.map((o) => row('other', o.kind, label(o.kind), o.transfers, o.coins_in - o.coins_out)),
    row('closing', '', `Closing balance ${s.month}`, null, s.closing_balance),
  ];
  return `${[STATEMENT_CSV_HEADER, ...rows].map(csvLine).join('\r\n')}\r\n`;
}

/** `statement-<username>-<month>.csv`, and the header that offers it as a download under that name. */
export function statementFileName(s: Pick<Statement, 'username' | 'month'>): string {
  return `statement-${s.username.replace(/[^A-Za-z0-9_.-]/g, '_')}-${s.month}.csv`;
}
export const attachment = (fileName: string) => `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
