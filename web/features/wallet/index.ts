/** The public face of wallet: The viewer's balances (and their live updates) and the impressions purchase form. Other features import wallet only from here. */
export { BuyImpressionsForm } from './BuyImpressionsForm';
export { useBalance, useBalanceFrames, useImpressionBalance, walletKeys } from './api';
