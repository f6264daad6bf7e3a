/** Wallet server state: balances, history, packages, cards and impressions (query keys per feature). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { userChannelOf } from '../../../common/realtime-channels';
import { realtimeClient } from '../../api/realtime';
import { wallet } from '../../../common/api/calls';
import type { Balance } from '../../../common/api/wallet';
import type { CallInput, CallOutput } from '../../../common/api';
import type { ApiError } from '../../api/client';
import { call } from '../../api/client';
import { IDEMPOTENCY_HEADER } from '../../../common/api/descriptor';
import type { BuyAttempt } from './impressions';

export const walletKeys = {
  all: ['wallet'] as const,
  balance: () => [...walletKeys.all, 'balance'] as const,
  hold: () => [...walletKeys.all, 'hold'] as const,
  transfers: (offset: number) => [...walletKeys.all, 'transfers', offset] as const,
  coinPackages: () => [...walletKeys.all, 'coin-packages'] as const,
  cards: () => [...walletKeys.all, 'cards'] as const,
  paymentMethods: () => [...walletKeys.all, 'payment-methods'] as const,
  impressionBalance: () => [...walletKeys.all, 'impression-balance'] as const,
  impressionPackages: () => [...walletKeys.all, 'impression-packages'] as const,
};

/** History rows per page. */
export const TRANSFERS_PAGE = 20;

export function useBalance(enabled = true) {
  return useQuery({ queryKey: walletKeys.balance(), queryFn: async () => (await call(wallet.walletBalance, {})).balance, enabled });
}

/** Why the wallet is on hold, if it is (coins owed, a dispute open). */
export function useWalletHold() {
  return useQuery({ queryKey: walletKeys.hold(), queryFn: async () => (await call(wallet.walletHold, {})).hold });
}

/** Keeps the balance current while signed in: BALANCE frames on the user's own channel (tips and sales received). */
export function useBalanceFrames(userId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    return realtimeClient().subscribe(userChannelOf(userId), {
      onMessage: (message) => {
        if (message.type === 'BALANCE') queryClient.setQueryData(walletKeys.balance(), message.balance);
      },
    });
  }, [userId, queryClient]);
}

export function useTransfers(offset: number) {
  return useQuery({
    queryKey: walletKeys.transfers(offset),
    queryFn: () => call(wallet.walletTransfers, { offset, limit: TRANSFERS_PAGE }),
    placeholderData: keepPreviousData,
  });
}

export function useCoinPackages() {
  return useQuery({ queryKey: walletKeys.coinPackages(), queryFn: async () => (await call(wallet.coinPackages, {})).packages, staleTime: 5 * 60_000 });
}

export function usePaymentMethods(enabled = true) {
  return useQuery({ queryKey: walletKeys.paymentMethods(), queryFn: async () => (await call(wallet.paymentMethods, {})).methods, staleTime: Infinity, enabled });
}

export function useCreditCards() {
  return useQuery({ queryKey: walletKeys.cards(), queryFn: async () => (await call(wallet.creditCards, {})).cards });
}

export function useImpressionBalance() {
  return useQuery({ queryKey: walletKeys.impressionBalance(), queryFn: async () => (await call(wallet.getImpressionBalance, {})).impression_balance });
}

export function useImpressionPackages() {
  return useQuery({
    queryKey: walletKeys.impressionPackages(),
    queryFn: async () => (await call(wallet.getImpressionPackages, {})).impression_packages,
    staleTime: 5 * 60_000,
  });
}

/** Money moved: the balance is the answer's, the history is read again. */
function afterMoneyMoved(queryClient: ReturnType<typeof useQueryClient>, balance: Balance) {
  queryClient.setQueryData(walletKeys.balance(), balance);
  void queryClient.invalidateQueries({ queryKey: [...walletKeys.all, 'transfers'] });
}

/** Polled after the processor's page sent the payer back, until the payment is settled (or the page gives up). */
export const DEPOSIT_RESULT_POLL_MS = 1500;

export function useDepositResult(paymentId: number | null, keepAsking: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...walletKeys.all, 'deposit-result', paymentId] as const,
    enabled: paymentId !== null,
    queryFn: async () => {
      const out = await call(wallet.depositResult, { payment_id: paymentId! });
      if (out.status === 'succeeded') void queryClient.invalidateQueries({ queryKey: walletKeys.all, predicate: (q) => q.queryKey[1] !== 'deposit-result' });
      return out;
    },
    refetchInterval: (query) => (keepAsking && query.state.data?.status === 'pending' ? DEPOSIT_RESULT_POLL_MS : false),
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export function useDepositCoins() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof wallet.depositCoins>, ApiError, CallInput<typeof wallet.depositCoins>>({
    mutationFn: (input) => call(wallet.depositCoins, input),
    onSuccess: (out) => {
      if (out.checkout) return;
      afterMoneyMoved(queryClient, out.balance);
      // A recurring package saves the card it was bought with.
      if (out.coin_subscription) void queryClient.invalidateQueries({ queryKey: walletKeys.cards() });
    },
  });
}

/** Buys a package; the attempt's key makes a retry after a network failure buy once. */
export function useBuyImpressions() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof wallet.buyImpressionsPackage>, ApiError, BuyAttempt>({
    mutationFn: ({ packageId, key }) => call(wallet.buyImpressionsPackage, { id: packageId }, { [IDEMPOTENCY_HEADER]: key }),
    onSuccess: (out) => {
      afterMoneyMoved(queryClient, out.balance);
      queryClient.setQueryData(walletKeys.impressionBalance(), out.impression_balance);
    },
  });
}

export function useAddCreditCard() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof wallet.addCreditCard>, ApiError, CallInput<typeof wallet.addCreditCard>>({
    mutationFn: (input) => call(wallet.addCreditCard, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: walletKeys.cards() }),
  });
}
