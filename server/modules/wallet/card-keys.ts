/**
 * A card as the referral programme tells people apart by it (decision 0036): its last four digits and
 * expiry, the most the wallet keeps of a card. Two accounts that paid with, or saved, the same card are
 * taken for one person: payments between them earn no commission.
 */
import { sql } from 'drizzle-orm';
import { paymentCards, payments } from './tables';

export const cardKeyOf = (last4: string, expMonth: number, expYear: number) => `${last4}:${expMonth}/${expYear}`;

/** The card keys an account has paid with or saved, as a one-column subquery (`card_key`). */
const cardKeysSql = (userId: unknown) => sql`select ${payments.cardKey} as card_key from ${payments}
    where ${payments.userId} = ${userId} and ${payments.cardKey} is not null
  union select ${paymentCards.last4} || ':' || ${paymentCards.expMonth} || '/' || ${paymentCards.expYear} from ${paymentCards}
    where ${paymentCards.userId} = ${userId} and ${paymentCards.last4} <> ''`;

/** True (as SQL) when the two accounts paid with or saved a common card. */
export const shareCardSql = (a: unknown, b: unknown) =>
  sql<boolean>`exists (select 1 from (${cardKeysSql(a)}) x join (${cardKeysSql(b)}) y on y.card_key = x.card_key)`;
