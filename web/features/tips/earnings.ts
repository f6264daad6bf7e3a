/** A broadcaster's earning details as a moderator reads them (spec part 1 §6 GRANT PERMISSION; §3 User earning details). */
import type { CallOutput } from '../../../common/api';
import type { userEarningDetails } from '../../../common/api/tips';
import type { Role } from '../../../common/permissions';
import { formatCoins } from '../../../common/rules/wallet-amounts';

export type EarningDetails = CallOutput<typeof userEarningDetails>;

export interface EarningRow {
  label: string;
  value: string;
}

/** The server's rule (user-earning-details): admins and holders of GRANT PERMISSION; the server refuses anyone else. */
export function mayLoadEarnings(user: { role: Role; perms: readonly string[] } | null): boolean {
  return !!user && (user.role === 'admin' || user.perms.includes('GRANT PERMISSION'));
}

/** A date in the reader's locale ("Mar 4, 2026" in en-US). */
const localDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateOf = (iso: string) => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '—' : localDate.format(at);
};

/** The definition list's rows, in the spec's order; totals are whole coins (net of the platform fee). */
export function earningRows(details: EarningDetails, formatDate: (iso: string) => string = dateOf): EarningRow[] {
  const dateOrNever = (iso: string | null) => (iso === null ? 'Never' : formatDate(iso));
  return [
    { label: 'Account created', value: formatDate(details.accountCreated) },
    { label: 'Last stream', value: dateOrNever(details.lastStreamDate) },
    { label: 'Biggest tip received', value: dateOrNever(details.maxTipReceivedDate) },
    { label: 'Biggest tip sent', value: dateOrNever(details.maxTipSentDate) },
    { label: 'Total earnings', value: formatCoins(details.totalEarnings) },
    { label: 'Earnings this month', value: formatCoins(details.totalMonthlyEarnings) },
  ];
}
