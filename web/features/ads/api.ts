/**
 * Ads server state (common/api/ads.ts): the offers a manager keeps, the public offers a broadcaster
 * attaches to the current stream, and the calls a stream page makes to show ads (presentation,
 * activity, the publisher's ad unit). The skin's ads settings come with app-config.
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData } from '@tanstack/react-query';
import { ads } from '../../../common/api/calls';
import type { CallInput, CallOutput } from '../../../common/api';
import type { ManagedOffer, PresentedOffer, PublicOffer } from '../../../common/api/ads';
import { PAGE_SIZE } from '../../../common/constants';
import { IDEMPOTENCY_HEADER } from '../../../common/api/descriptor';
import { call } from '../../api/client';
import type { ApiError } from '../../api/client';
import { streamKeys } from '../../api/content-keys';
import { useAppConfig } from '../system';
import { walletKeys } from '../wallet';
import { markSelected, nextOffset } from './ad-rules';

export const adKeys = {
  all: ['ads'] as const,
  offers: () => [...adKeys.all, 'offers'] as const,
  /** Per started stream: the marks of `selected` are that stream's, and a stream that starts reads them anew. */
  publicOffersOfAnyStream: () => [...adKeys.all, 'public-offers'] as const,
  publicOffers: (streamId: number | null) => [...adKeys.publicOffersOfAnyStream(), streamId] as const,
};

/** The skin's ads settings (network, ad unit per placement, chat ad interval), from app-config. */
export function useAdsSettings() {
  const config = useAppConfig();
  return { settings: config.data?.ads, isPending: config.isPending };
}

interface OfferPage {
  offers: ManagedOffer[];
  total: number;
  offset: number;
}

/** The offers the caller manages (an administrator's all, an advertiser's own), newest first, a page at a time. */
export function useOffers() {
  return useInfiniteQuery({
    queryKey: adKeys.offers(),
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<OfferPage> => ({ ...(await call(ads.offerList, { offset: pageParam })), offset: pageParam }),
    getNextPageParam: (last) => nextOffset({ offset: last.offset, count: last.offers.length, total: last.total }),
  });
}

interface PublicOfferPage {
  offers: PublicOffer[];
  total: number;
  /** The caller's current stream; null: 'Please start streaming first'. */
  stream_id: number | null;
  offset: number;
}

/** The offers a broadcaster can attach to the current stream, 10 a page ("Load more"). */
export function usePublicOffers(startedStreamId: number | null, enabled = true) {
  return useInfiniteQuery({
    queryKey: adKeys.publicOffers(startedStreamId),
    enabled,
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<PublicOfferPage> => ({
      ...(await call(ads.publicOfferList, { offset: pageParam, limit: PAGE_SIZE.publicOffers })),
      offset: pageParam,
    }),
    getNextPageParam: (last) => nextOffset({ offset: last.offset, count: last.offers.length, total: last.total }),
  });
}

/** A change to the offers shows in both lists (the public list carries every manager's offers). */
function useRefreshOffers() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: adKeys.all });
}

export function useCreateOffer() {
  const refresh = useRefreshOffers();
  return useMutation<CallOutput<typeof ads.offerCreate>, ApiError, CallInput<typeof ads.offerCreate>>({
    mutationFn: (input) => call(ads.offerCreate, input),
    onSuccess: refresh,
  });
}

export function useUpdateOffer() {
  const refresh = useRefreshOffers();
  return useMutation<CallOutput<typeof ads.offerUpdate>, ApiError, CallInput<typeof ads.offerUpdate>>({
    mutationFn: (input) => call(ads.offerUpdate, input),
    onSuccess: refresh,
  });
}

/** Coins moved between the wallet and a campaign: both the offers and the wallet are read again. */
function useRefreshOffersAndWallet() {
  const queryClient = useQueryClient();
  const refresh = useRefreshOffers();
  return () => {
    refresh();
    void queryClient.invalidateQueries({ queryKey: walletKeys.all });
  };
}

export function useDeleteOffer() {
  const refresh = useRefreshOffersAndWallet();
  return useMutation<CallOutput<typeof ads.offerDelete>, ApiError, number>({
    mutationFn: (id) => call(ads.offerDelete, { id }),
    onSuccess: refresh,
  });
}

/** Moves coins from the wallet to the offer's campaign balance; `key` makes a retried submission move them once. */
export function useFundOffer() {
  const refresh = useRefreshOffersAndWallet();
  return useMutation<CallOutput<typeof ads.offerFund>, ApiError, CallInput<typeof ads.offerFund> & { key: string }>({
    mutationFn: ({ key, ...input }) => call(ads.offerFund, input, { [IDEMPOTENCY_HEADER]: key }),
    onSuccess: refresh,
  });
}

/** Takes what is left of a paused offer's campaign balance back to the wallet. */
export function useWithdrawOffer() {
  const refresh = useRefreshOffersAndWallet();
  return useMutation<CallOutput<typeof ads.offerWithdraw>, ApiError, { id: number; key: string }>({
    mutationFn: ({ key, id }) => call(ads.offerWithdraw, { id }, { [IDEMPOTENCY_HEADER]: key }),
    onSuccess: refresh,
  });
}

/** 'Update Stream Ads': the current stream's offers; its campaign shows in the stream's info. */
export function useUpdateStreamOffers() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof ads.updateStreamOffers>, ApiError, number[]>({
    mutationFn: (offerIds) => call(ads.updateStreamOffers, { offer_ids: offerIds }),
    onSuccess: ({ offer_ids }) => {
      // The answer is the selection now: the loaded pages show it at once, then the list is read again.
      queryClient.setQueriesData<InfiniteData<PublicOfferPage>>({ queryKey: adKeys.publicOffersOfAnyStream() }, (data) =>
        data && { ...data, pages: data.pages.map((page) => ({ ...page, offers: markSelected(page.offers, offer_ids) })) },
      );
      void queryClient.invalidateQueries({ queryKey: streamKeys.all });
    },
    // A 409 means the stream ended meanwhile: the list then says so.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adKeys.publicOffersOfAnyStream() }),
  });
}

/** One of the stream's offers of a type for this viewer, or null; each call is a new presentation (nothing cached). */
export function useOfferPresentation() {
  return useMutation<PresentedOffer | null, ApiError, CallInput<typeof ads.offerPresentation>>({
    mutationFn: async (input) => (await call(ads.offerPresentation, input)).offer,
  });
}

/** Records an impression, click or completion of a presented offer (counted once per viewer, offer and window). */
export function useOfferActivity() {
  return useMutation<CallOutput<typeof ads.offerActivity>, ApiError, CallInput<typeof ads.offerActivity>>({
    mutationFn: (input) => call(ads.offerActivity, input),
  });
}

/** The publisher network's ad unit for a broadcaster's current stream. */
export function usePublisher() {
  return useMutation<CallOutput<typeof ads.publisher>['publisher'], ApiError, CallInput<typeof ads.publisher>>({
    mutationFn: async (input) => (await call(ads.publisher, input)).publisher,
  });
}
