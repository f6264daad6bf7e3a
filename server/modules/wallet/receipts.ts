/**
 * The receipt of a credited deposit: mailed once per payment from the outbox's `deposit.credited`
 * (at least once delivered; `receipt_sent_at` makes it once). It names the package, the coins, the
 * amount and the processor's reference; nothing secret (no card digits, no tokens).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { fill, MSG } from '../../../common/messages';
import { formatCents } from '../../../common/rules/format';
import type { Db } from '../../platform/db/client';
import type { Mailer } from '../../platform/mail/mailer';
import type { AccountsService } from '../accounts';
import { coinPackages, payments } from './tables';

export function createReceipts(deps: { db: Db; accounts: AccountsService; mailer: Mailer }) {
  const { db } = deps;
  return {
    async send(paymentId: number): Promise<void> {
      if (deps.mailer.transport === 'none') return;
      const [claimed] = await db.update(payments).set({ receiptSentAt: new Date() })
        .where(and(eq(payments.id, paymentId), eq(payments.status, 'succeeded'), isNull(payments.receiptSentAt)))
        .returning();
      if (!claimed) return;
      try {
        const [pkg] = await db.select({ name: coinPackages.name, coins: coinPackages.coins }).from(coinPackages).where(eq(coinPackages.id, claimed.packageId));
        const contact = await deps.accounts.mailContact(claimed.userId);
        if (!contact || !pkg) return;
        await deps.mailer.send({
          to: contact.email,
          subject: fill(MSG.depositReceiptSubject, { package: pkg.name }),
          text: fill(MSG.depositReceiptText, {
            username: contact.username,
            package: pkg.name,
            coins: String(pkg.coins),
            price: formatCents(claimed.amount, claimed.currency),
            reference: claimed.paymentRef ?? claimed.providerRef,
            date: (claimed.settledAt ?? new Date()).toISOString().slice(0, 10),
          }),
        });
      } catch (error) {
        // Not sent: the outbox delivers the event again, and this claim must not stop that.
        await db.update(payments).set({ receiptSentAt: null }).where(eq(payments.id, paymentId));
        throw error;
      }
    },
  };
}
