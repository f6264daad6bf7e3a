/**
 * The ledger: the one writer of money. Double-entry transfers in one statement, idempotent by key,
 * never below zero (decisions 0011, 0012); money conserved: coins issued only against money in or an
 * audited, budgeted grant (decision 0036); the reads other modules need of the books.
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import './events';
import { createLedger, type Ledger } from './service';

export { accountKey, InsufficientFunds, platformFee, receivingShard, receivingShardsBySlot, type AccountRef, type Ledger, type TransferRequest } from './service';
export { balancesJsonSql, holdsImpressionsSql, paidActivitySql, spendOnStreamSql, tipFactsSql, tippedOnStreamSql, walletBalanceSql } from './reads';
export { CURRENCIES, TRANSFER_KINDS, type Currency, type TransferKind } from './tables';
export { checkConservation, conservationViolations, formatConservation, type ConservationReport } from './conservation';
export { depositTransfer, type RecordedDeposit } from './deposits';
export { paymentLegs } from './payment-legs';
export { AccountOnHold, type Hold } from './holds';
export { debtAccountName, MONEY_OUT_ACCOUNTS, PAYOUTS_HOLDING_ACCOUNT } from './tables';
export { earnedProbe, lockWallet, maturesEnoughAt, payoutPosition, walletVersion, type PayoutPosition } from './payout-position';
export { createLedger } from './service';
export { createGrants, GrantRefused, GRANT_AUDIT_ACTION, type Grants } from './grants';

declare module '../../platform/module' {
  interface ModuleServices {
    ledger: Ledger;
  }
}

export function createLedgerModule({ db, config }: ModuleContext): AppModule {
  return { name: 'ledger', services: { ledger: createLedger({ db, namedInTransactions: config.database.kind === 'postgres' }) } };
}
