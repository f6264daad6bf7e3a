/** The payment methods as the spec names them (wallet first, the default), and those paid on a processor's page here. */
import type { PaymentMethodId } from '../../../common/api/wallet';
import { usePaymentMethods } from './api';

export const METHOD_LABELS = { wallet: 'Wallet', card: 'Credit Card', paypal: 'PayPal', bitcoin: 'Bitcoin' } as const;

/** The methods this installation takes on a processor's page (card under Stripe, PayPal, bitcoin through BTCPay). */
export function useCheckoutMethods(enabled = true): { methods: PaymentMethodId[]; isPending: boolean } {
  const methods = usePaymentMethods(enabled);
  return { methods: (methods.data ?? []).filter((m) => m.available && m.checkout).map((m) => m.id), isPending: methods.isPending };
}
