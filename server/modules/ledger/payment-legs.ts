import { platformFee, receivingShard } from './service';

/**
 * The legs of one user paying another for something (a subscription, a show's minute): the payer's
 * wallet pays `price`, the payee's receiving shard gets it less the platform's share, the fees account
 * that share. Shards are the payer's, so payments to one payee from many payers do not queue on one row.
 */
export function paymentLegs(payerId: number, payeeId: number, price: number, feePercent: number) {
  const fee = platformFee(price, feePercent);
  const shard = receivingShard(payerId);
  return {
    fee,
    legs: [
      { account: { userId: payerId, currency: 'CON' as const }, amount: -price },
      { account: { userId: payeeId, currency: 'CON' as const, shard }, amount: price - fee },
      { account: { system: 'fees' as const, currency: 'CON' as const, shard }, amount: fee },
    ],
  };
}
