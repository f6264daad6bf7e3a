/** The public face of wallet: the viewer's balances (and their live updates), the impressions purchase form and the payment methods. Other features import wallet only from here. */
export { BuyImpressionsForm } from './BuyImpressionsForm';
export { useBalance, useBalanceFrames, useImpressionBalance, walletKeys } from './api';
export { METHOD_LABELS, useCheckoutMethods } from './methods';
