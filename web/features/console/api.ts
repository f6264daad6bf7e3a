/** The operator console's calls (common/api/console.ts), one query key per list. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { console as consoleApi, wallet as walletApi } from '../../../common/api/calls';
import type { CallDescriptor, CallInput, CallOutput } from '../../../common/api/define';
import { call, type ApiError } from '../../api/client';

export const consoleKeys = {
  all: ['console'] as const,
  reports: (status: 'open' | 'handled') => [...consoleKeys.all, 'reports', status] as const,
  users: (query: string) => [...consoleKeys.all, 'users', query] as const,
  user: (id: number) => [...consoleKeys.all, 'user', id] as const,
  featured: () => [...consoleKeys.all, 'featured'] as const,
  channels: () => [...consoleKeys.all, 'channels'] as const,
  messages: () => [...consoleKeys.all, 'messages'] as const,
  audit: () => [...consoleKeys.all, 'audit'] as const,
  jobs: () => [...consoleKeys.all, 'jobs'] as const,
  heldAccounts: () => [...consoleKeys.all, 'held-accounts'] as const,
  payouts: () => [...consoleKeys.all, 'payouts'] as const,
  deposits: (username: string) => [...consoleKeys.all, 'deposits', username] as const,
};

/** Rows a page of a console list holds. */
const PAGE = 50;

/** A list read a page at a time from `offset` while its total says more remain (Load more). */
function useOffsetPages<T>(queryKey: QueryKey, fetchPage: (offset: number) => Promise<{ rows: T[]; total: number }>) {
  return useInfiniteQuery({
    queryKey,
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => ({ ...(await fetchPage(pageParam)), offset: pageParam }),
    getNextPageParam: (last) => (last.rows.length > 0 && last.offset + last.rows.length < last.total ? last.offset + last.rows.length : undefined),
    staleTime: 0,
  });
}

export const useReports = (status: 'open' | 'handled') =>
  useOffsetPages(consoleKeys.reports(status), async (offset) => {
    const page = await call(consoleApi.reports, { status, offset, limit: PAGE });
    return { rows: page.reports, total: page.total };
  });
export const useUsers = (query: string) =>
  useOffsetPages(consoleKeys.users(query), async (offset) => {
    const page = await call(consoleApi.users, { offset, limit: PAGE, ...(query ? { query } : {}) });
    return { rows: page.users, total: page.total };
  });
export const useConsoleUser = (id: number | null) =>
  useQuery({ queryKey: consoleKeys.user(id ?? 0), queryFn: () => call(consoleApi.user, { id: id! }), enabled: id !== null, staleTime: 0 });
export const useFeatured = () => useQuery({ queryKey: consoleKeys.featured(), queryFn: () => call(consoleApi.featured, {}), staleTime: 0 });
export const useConsoleJobs = () => useQuery({ queryKey: consoleKeys.jobs(), queryFn: () => call(consoleApi.jobs, {}), staleTime: 0 });
export const useCustomChannels = () => useQuery({ queryKey: consoleKeys.channels(), queryFn: () => call(consoleApi.customChannels, {}), staleTime: 0 });
export const useHeldAccounts = () => useQuery({ queryKey: consoleKeys.heldAccounts(), queryFn: () => call(walletApi.heldAccounts, {}), staleTime: 0 });
export const useUserDeposits = (username: string) =>
  useQuery({ queryKey: consoleKeys.deposits(username), queryFn: () => call(walletApi.userDeposits, { username }), enabled: username !== '', staleTime: 0, retry: false });
export const useConsoleMessages = () => useQuery({ queryKey: consoleKeys.messages(), queryFn: () => call(consoleApi.systemMessages, {}), staleTime: 0 });
/** The audit log, newest first, a page at a time before the last entry shown. */
export const useAudit = () =>
  useInfiniteQuery({
    queryKey: consoleKeys.audit(),
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) => call(consoleApi.auditLog, { limit: PAGE, ...(pageParam === undefined ? {} : { before: pageParam }) }),
    getNextPageParam: (last) => (last.entries.length === PAGE ? last.entries.at(-1)!.id : undefined),
    staleTime: 0,
  });

/** A console change: afterwards every console list is read again (the audit log too). */
export function useConsoleAction<C extends CallDescriptor>(def: C) {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<C>, ApiError, CallInput<C>>({
    mutationFn: (input) => call(def, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.all }),
  });
}
