/** Subscriptions server state: templates, plans, one's subscriptions and subscribers, figures, and the actions on them. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { planOffers as offers, subscriptions as subs } from '../../../common/api/calls';
import type { CallInput, CallOutput } from '../../../common/api';
import { IDEMPOTENCY_HEADER } from '../../../common/api/descriptor';
import { PAGE_SIZE } from '../../../common/constants';
import type { ApiError } from '../../api/client';
import { call } from '../../api/client';
import { postKeys } from '../../api/content-keys';
import { socialKeys } from '../social';
import { streamKeys } from '../../api/content-keys';
import { walletKeys } from '../wallet';

export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  templates: () => [...subscriptionKeys.all, 'templates'] as const,
  plans: (userId: number) => [...subscriptionKeys.all, 'plans', userId] as const,
  margin: () => [...subscriptionKeys.all, 'margin'] as const,
  mine: (offset: number) => [...subscriptionKeys.all, 'mine', offset] as const,
  subscribers: (userId: number, offset: number) => [...subscriptionKeys.all, 'subscribers', userId, offset] as const,
  coins: (offset: number) => [...subscriptionKeys.all, 'coins', offset] as const,
  history: (id: number) => [...subscriptionKeys.all, 'history', id] as const,
  stats: (userId: number) => [...subscriptionKeys.all, 'stats', userId] as const,
  offers: () => [...subscriptionKeys.all, 'offers'] as const,
  offer: (code: string) => [...subscriptionKeys.all, 'offer', code] as const,
};

const PAGE = PAGE_SIZE.subscriptions;

export const usePlanTemplates = () => useQuery({ queryKey: subscriptionKeys.templates(), queryFn: async () => (await call(subs.planTemplates, {})).templates });

export const usePlans = (userId: number, enabled = true) =>
  useQuery({ queryKey: subscriptionKeys.plans(userId), queryFn: () => call(subs.planList, { id: userId }), enabled });

export const useMargin = () =>
  useQuery({ queryKey: subscriptionKeys.margin(), queryFn: () => call(subs.planMargin, { currency: 'CON' }), staleTime: 5 * 60_000 });

export const useMySubscriptions = (offset: number) =>
  useQuery({ queryKey: subscriptionKeys.mine(offset), queryFn: () => call(subs.listSubscriptions, { offset, limit: PAGE }), placeholderData: keepPreviousData });

export const useMySubscribers = (userId: number, offset: number) =>
  useQuery({ queryKey: subscriptionKeys.subscribers(userId, offset), queryFn: () => call(subs.listSubscribers, { user_id: userId, offset, limit: PAGE }), placeholderData: keepPreviousData });

export const useCoinSubscriptions = (offset: number) =>
  useQuery({ queryKey: subscriptionKeys.coins(offset), queryFn: () => call(subs.listCoinSubscriptions, { offset, limit: PAGE }), placeholderData: keepPreviousData });

export const useSubscriptionHistory = (id: number, enabled: boolean) =>
  useQuery({ queryKey: subscriptionKeys.history(id), queryFn: async () => (await call(subs.subscriptionHistory, { id })).history, enabled });

export const useSubscriberStats = (userId: number) =>
  useQuery({ queryKey: subscriptionKeys.stats(userId), queryFn: async () => (await call(subs.subscriberStats, { id: userId })).stats });

/** Everything a subscription change may show elsewhere: lists, plans, profiles, streams, posts, the wallet. */
function refreshAfterChange(queryClient: ReturnType<typeof useQueryClient>, keep: (key: readonly unknown[]) => boolean = () => true) {
  for (const key of [subscriptionKeys.all, socialKeys.all, streamKeys.all, postKeys.all, walletKeys.all]) void queryClient.invalidateQueries({ queryKey: key, predicate: (q) => keep(q.queryKey) });
}

export function useAddPlan() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof subs.planAdd>, ApiError, { template_id: number; price: number }>({
    mutationFn: (input) => call(subs.planAdd, { ...input, currency: 'CON' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
  });
}

export function useDeletePlan() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof subs.planDelete>, ApiError, number>({
    mutationFn: (planId) => call(subs.planDelete, { plan_id: planId }),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof subs.cancelSubscription>, ApiError, number>({
    mutationFn: (id) => call(subs.cancelSubscription, { id }),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}

export function useRenewSubscription() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof subs.renewSubscription>, ApiError, number>({
    mutationFn: (id) => call(subs.renewSubscription, { id }),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}

/** One subscribe attempt: its key is made once per attempt and sent again with a retry, so the plan is paid once. */
export interface SubscribeAttempt {
  planId: number;
  creatorId: number;
  autoRenew: boolean;
  key: string;
}

export function useSubscribe() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof subs.subscribe>, ApiError, SubscribeAttempt>({
    mutationFn: ({ planId, creatorId, autoRenew, key }) =>
      call(subs.subscribe, { plan_id: planId, user_id: creatorId, auto_renew: autoRenew }, { [IDEMPOTENCY_HEADER]: key }),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}

/** A plan paid on a processor's page (decision 0059): answers where to send the payer. */
export function useSubscribeCheckout() {
  return useMutation<CallOutput<typeof subs.subscribeCheckout>, ApiError, CallInput<typeof subs.subscribeCheckout>>({
    mutationFn: (input) => call(subs.subscribeCheckout, input),
  });
}

/** Polled after the processor's page sent the payer back, until the plan's payment is settled (or the page gives up). */
export const CHECKOUT_RESULT_POLL_MS = 1500;

export function usePlanCheckoutResult(paymentId: number, keepAsking: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...subscriptionKeys.all, 'checkout-result', paymentId] as const,
    queryFn: async () => {
      const out = await call(subs.subscribeCheckoutResult, { payment_id: paymentId });
      if (out.payment.status === 'succeeded') refreshAfterChange(queryClient, (key) => key[1] !== 'checkout-result');
      return out;
    },
    refetchInterval: (query) => (keepAsking && query.state.data?.payment.status === 'pending' ? CHECKOUT_RESULT_POLL_MS : false),
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** The creator's offers on their plans (decision 0089). */
export const useMyPlanOffers = () => useQuery({ queryKey: subscriptionKeys.offers(), queryFn: async () => (await call(offers.offerList, {})).offers });

/** One offer by its link's code, with whether the viewer may take it. */
export const usePlanOffer = (code: string, enabled = true) =>
  useQuery({ queryKey: subscriptionKeys.offer(code), queryFn: () => call(offers.offerLookup, { code }), enabled, retry: false });

export function useAddPlanOffer() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof offers.offerAdd>, ApiError, CallInput<typeof offers.offerAdd>>({
    mutationFn: (input) => call(offers.offerAdd, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.offers() }),
  });
}

export function useWithdrawPlanOffer() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof offers.offerWithdraw>, ApiError, number>({
    mutationFn: (offerId) => call(offers.offerWithdraw, { offer_id: offerId }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.offers() }),
  });
}

/** One attempt at taking an offer: its key is made once per attempt and sent again with a retry. */
export interface OfferAttempt {
  code: string;
  autoRenew: boolean;
  key: string;
}

export function useClaimPlanOffer() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof offers.offerClaim>, ApiError, OfferAttempt>({
    mutationFn: ({ code, autoRenew, key }) => call(offers.offerClaim, { code, auto_renew: autoRenew }, { [IDEMPOTENCY_HEADER]: key }),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}
