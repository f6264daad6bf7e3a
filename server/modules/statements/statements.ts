/**
 * Monthly statements and a year's summary (decision 0062), read from the books: the ledger's
 * `walletMonths` gives the coin wallet's balance before the period and its entries per month and kind.
 * Earnings are the earning kinds paid to the creator (gross = what reached the wallet + the fee the
 * platform took); payouts every kind named `payout…`; everything else is another movement. So
 * opening + gross − fees − payouts + other = closing, to the coin.
 */
import type { Statement } from '../../../common/api/statements';
import { COINS_PER_USD } from '../../../common/constants';
import { EARNING_KINDS, isPayoutKind, type EarningKind, type TransferKind } from '../../../common/rules/transfer-kinds';
import { MSG } from '../../../common/messages';
import type { Ledger } from '../ledger';
import { badRequest, notFound } from '../../platform/http/errors';

type Move = Awaited<ReturnType<Ledger['walletMonths']>>['moves'][number];
type Totals = Statement['totals'];

const monthStart = (month: string) => new Date(`${month}-01T00:00:00Z`);
const nextMonth = (month: string) => {
  const start = monthStart(month);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
};

/** The statement's lines and totals of some of the wallet's moves. */
function linesOf(moves: readonly Move[]) {
  const earnings = new Map<EarningKind, { kind: EarningKind; transfers: number; gross: number; fees: number; net: number }>();
  const payouts = new Map<TransferKind, { kind: TransferKind; transfers: number; coins: number }>();
  const other = new Map<TransferKind, { kind: TransferKind; transfers: number; coins_in: number; coins_out: number }>();
  for (const move of moves) {
    if (move.earned) {
      const kind = move.kind as EarningKind;
      const line = earnings.get(kind) ?? { kind, transfers: 0, gross: 0, fees: 0, net: 0 };
      line.transfers += move.transfers;
      line.net += move.credits;
      line.fees += move.fees;
      line.gross += move.credits + move.fees;
      earnings.set(kind, line);
    } else if (isPayoutKind(move.kind)) {
      const line = payouts.get(move.kind) ?? { kind: move.kind, transfers: 0, coins: 0 };
      line.transfers += move.transfers;
      // A payout takes coins out; one returned (a later `payout…` credit) gives them back.
      line.coins += move.debits - move.credits;
      payouts.set(move.kind, line);
    } else {
      const line = other.get(move.kind) ?? { kind: move.kind, transfers: 0, coins_in: 0, coins_out: 0 };
      line.transfers += move.transfers;
      line.coins_in += move.credits;
      line.coins_out += move.debits;
      other.set(move.kind, line);
    }
  }
  const byKind = <T extends { kind: string }>(lines: Map<string, T>, order: readonly string[]) =>
    [...lines.values()].sort((a, b) => (order.indexOf(a.kind) + 1 || 99) - (order.indexOf(b.kind) + 1 || 99) || a.kind.localeCompare(b.kind));
  const sum = <T>(lines: Map<unknown, T>, figure: (line: T) => number) => [...lines.values()].reduce((total, line) => total + figure(line), 0);
  const totals: Totals = {
    gross: sum(earnings, (l) => l.gross),
    fees: sum(earnings, (l) => l.fees),
    net: sum(earnings, (l) => l.net),
    payouts: sum(payouts, (l) => l.coins),
    other_net: sum(other, (l) => l.coins_in - l.coins_out),
  };
  return { earnings: byKind(earnings, EARNING_KINDS), payouts: byKind(payouts, []), other: byKind(other, []), totals };
}

const closingOf = (opening: number, totals: Totals) => opening + totals.net - totals.payouts + totals.other_net;

export function createStatements(deps: { ledger: Pick<Ledger, 'walletMonths'>; usernameOf: (userId: number) => Promise<string | null> }) {
  const username = async (userId: number) => {
    const name = await deps.usernameOf(userId);
    if (name === null) throw notFound();
    return name;
  };

  return {
    /** The statement of `month` (YYYY-MM, UTC); a month that has not ended is read up to `now`. */
    async month(userId: number, month: string, now = new Date()): Promise<Statement> {
      const from = monthStart(month);
      if (from > now) throw badRequest(MSG.statementNotYet, 'month');
      const name = await username(userId);
      const to = nextMonth(month);
      const { opening, moves } = await deps.ledger.walletMonths(userId, from, to);
      const lines = linesOf(moves);
      return {
        user_id: userId, username: name, month, from: from.toISOString(), to: to.toISOString(), coins_per_usd: COINS_PER_USD,
        opening_balance: opening, closing_balance: closingOf(opening, lines.totals), ...lines,
        as_of: (to < now ? to : now).toISOString(),
      };
    },

    /** A year (UTC) for taxes: each month's totals and balances, and the year's earnings and payouts by kind. */
    async year(userId: number, year: number, now = new Date()) {
      const from = new Date(Date.UTC(year, 0, 1));
      if (from > now) throw badRequest(MSG.statementNotYet, 'year');
      const name = await username(userId);
      const to = new Date(Date.UTC(year + 1, 0, 1));
      const { opening, moves } = await deps.ledger.walletMonths(userId, from, to);
      const months = [];
      let balance = opening;
      for (let m = 0; m < 12 && new Date(Date.UTC(year, m, 1)) <= now; m += 1) {
        const month = `${year}-${String(m + 1).padStart(2, '0')}`;
        const { totals } = linesOf(moves.filter((move) => move.month === month));
        const closing = closingOf(balance, totals);
        months.push({ month, opening_balance: balance, closing_balance: closing, ...totals });
        balance = closing;
      }
      const { earnings, payouts, totals } = linesOf(moves);
      return {
        user_id: userId, username: name, year, coins_per_usd: COINS_PER_USD, opening_balance: opening, closing_balance: closingOf(opening, totals),
        months, earnings, payouts, totals, as_of: (to < now ? to : now).toISOString(),
      };
    },
  };
}
export type Statements = ReturnType<typeof createStatements>;
