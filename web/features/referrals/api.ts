/**
 * Referral server state (common/api/referrals.ts): the caller's links and summary, the referred people
 * a page at a time, the referred, commission and streaming summaries, and new campaign links. Every
 * query waits for its filters (null until the range selector has emitted, and always for a person
 * outside the programme: no referral call is made without a referral code id). Failures are shown.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { referrals } from '../../../common/api/calls';
import type { CallInput, CallOutput } from '../../../common/api';
import { REFERRED_PAGE_SIZE } from '../../../common/api/referrals';
import { call } from '../../api/client';
import type { ApiError } from '../../api/client';
import type { ReferralFilters } from './referral-rules';

type Summary = CallOutput<typeof referrals.referralSummary>;

const filterKey = (filters: ReferralFilters | null) => (filters ? [filters.referral_code_id ?? null, filters.from, filters.to] : [null]);

export const referralKeys = {
  all: ['referrals'] as const,
  summaries: () => [...referralKeys.all, 'summary'] as const,
  summary: (filters: ReferralFilters | null) => [...referralKeys.summaries(), ...filterKey(filters)] as const,
  referred: (filters: ReferralFilters | null) => [...referralKeys.all, 'referred', ...filterKey(filters)] as const,
  commission: (filters: ReferralFilters | null) => [...referralKeys.all, 'commission', ...filterKey(filters)] as const,
  streaming: (filters: ReferralFilters | null) => [...referralKeys.all, 'streaming', ...filterKey(filters)] as const,
  list: (filters: ReferralFilters | null, offset: number) => [...referralKeys.all, 'list', ...filterKey(filters), offset] as const,
};

/** The caller's links, rates, referral count and settlements (the links stay shown while other filters load). */
export function useReferralSummary(filters: ReferralFilters | null) {
  return useQuery({
    queryKey: referralKeys.summary(filters),
    enabled: filters !== null,
    queryFn: () => call(referrals.referralSummary, filters!),
    placeholderData: keepPreviousData,
  });
}

/** How many signed up through the links: in all, in the range, per programme. */
export function useReferredSummary(filters: ReferralFilters | null) {
  return useQuery({
    queryKey: referralKeys.referred(filters),
    enabled: filters !== null,
    queryFn: async () => (await call(referrals.referralSummaryReferred, filters!)).referred,
    placeholderData: keepPreviousData,
  });
}

/** Commission of the settled periods in the range, per commission type, and the settlements paid. */
export function useCommissionSummary(filters: ReferralFilters | null) {
  return useQuery({
    queryKey: referralKeys.commission(filters),
    enabled: filters !== null,
    queryFn: async () => (await call(referrals.referralSummaryCommission, filters!)).commission,
    placeholderData: keepPreviousData,
  });
}

/** What the referred broadcasters streamed in the range. */
export function useStreamingSummary(filters: ReferralFilters | null) {
  return useQuery({
    queryKey: referralKeys.streaming(filters),
    enabled: filters !== null,
    queryFn: async () => (await call(referrals.referralSummaryStreaming, filters!)).streaming,
    placeholderData: keepPreviousData,
  });
}

/** One page (10 people) of those who signed up through the links, newest first. */
export function useReferredList(filters: ReferralFilters | null, offset: number) {
  return useQuery({
    queryKey: referralKeys.list(filters, offset),
    enabled: filters !== null,
    queryFn: () => call(referrals.referralReferredList, { ...filters!, offset, limit: REFERRED_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
}

type CreateInput = CallInput<typeof referrals.referralLinkCreate>;
type CreateOutput = CallOutput<typeof referrals.referralLinkCreate>;

/** A new campaign link: it joins the links shown at once, then every figure is read again. */
export function useCreateReferralLink() {
  const queryClient = useQueryClient();
  return useMutation<CreateOutput, ApiError, CreateInput>({
    mutationFn: (input) => call(referrals.referralLinkCreate, input),
    onSuccess: ({ link }) => {
      queryClient.setQueriesData<Summary>({ queryKey: referralKeys.summaries() }, (old) =>
        old && !old.links.some((known) => known.referral_code_id === link.referral_code_id) ? { ...old, links: [...old.links, link] } : old,
      );
      void queryClient.invalidateQueries({ queryKey: referralKeys.all });
    },
  });
}
