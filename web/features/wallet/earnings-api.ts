/** Earnings and payouts server state (decision 0061): the caller's earnings, and saving, requesting, cancelling and scheduling payouts. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { payouts } from '../../../common/api/calls';
import type { CallInput, CallOutput } from '../../../common/api';
import { IDEMPOTENCY_HEADER } from '../../../common/api/descriptor';
import type { ApiError } from '../../api/client';
import { call } from '../../api/client';
import { walletKeys } from './api';

const earningsKey = [...walletKeys.all, 'earnings'] as const;

export function useEarnings() {
  return useQuery({ queryKey: earningsKey, queryFn: () => call(payouts.myEarnings, {}) });
}

/** A payout call that changes the earnings page (and the wallet's balance): both read again after it. */
function usePayoutCall<C extends typeof payouts.savePayoutMethod | typeof payouts.setPayoutSchedule | typeof payouts.cancelPayout | typeof payouts.startStripeOnboarding | typeof payouts.refreshStripeAccount | typeof payouts.choosePayPal>(def: C) {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<C>, ApiError, CallInput<C>>({
    mutationFn: (input) => call(def, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletKeys.all }),
  });
}

export const useSavePayoutMethod = () => usePayoutCall(payouts.savePayoutMethod);
export const useSetPayoutSchedule = () => usePayoutCall(payouts.setPayoutSchedule);
/** Cancelling a request twice answers the same: no key needed. */
export const useCancelPayout = () => usePayoutCall(payouts.cancelPayout);
/** Stripe chosen: answers the onboarding link the browser goes to (decision 0063). */
export const useStartStripeOnboarding = () => usePayoutCall(payouts.startStripeOnboarding);
/** Back from Stripe's onboarding: the account's status asked again. */
export const useRefreshStripeAccount = () => usePayoutCall(payouts.refreshStripeAccount);

/** PayPal chosen: payouts go to this email (decision 0064). */
export const useChoosePayPal = () => usePayoutCall(payouts.choosePayPal);

/** A payout request: the key is made once per attempt by the form, so a retry asks once. */
export function useRequestPayout() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof payouts.requestPayout>, ApiError, { coins: number; key: string }>({
    mutationFn: ({ coins, key }) => call(payouts.requestPayout, { coins }, { [IDEMPOTENCY_HEADER]: key }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletKeys.all }),
  });
}
