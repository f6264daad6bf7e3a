/** The operator console's calls (common/api/console.ts), one query key per list. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { console as consoleApi, type CallDef, type CallInput, type CallOutput } from '../../../common/api';
import { call, type ApiError } from '../../api/client';

export const consoleKeys = {
  all: ['console'] as const,
  reports: (status: 'open' | 'handled') => [...consoleKeys.all, 'reports', status] as const,
  users: (query: string) => [...consoleKeys.all, 'users', query] as const,
  user: (id: number) => [...consoleKeys.all, 'user', id] as const,
  featured: () => [...consoleKeys.all, 'featured'] as const,
  messages: () => [...consoleKeys.all, 'messages'] as const,
  outbox: (to: string) => [...consoleKeys.all, 'outbox', to] as const,
  audit: () => [...consoleKeys.all, 'audit'] as const,
};

export const useReports = (status: 'open' | 'handled') =>
  useQuery({ queryKey: consoleKeys.reports(status), queryFn: () => call(consoleApi.reports, { status, limit: 100 }), staleTime: 0 });
export const useUsers = (query: string) =>
  useQuery({ queryKey: consoleKeys.users(query), queryFn: () => call(consoleApi.users, { limit: 50, ...(query ? { query } : {}) }), staleTime: 0 });
export const useConsoleUser = (id: number | null) =>
  useQuery({ queryKey: consoleKeys.user(id ?? 0), queryFn: () => call(consoleApi.user, { id: id! }), enabled: id !== null, staleTime: 0 });
export const useFeatured = () => useQuery({ queryKey: consoleKeys.featured(), queryFn: () => call(consoleApi.featured, {}), staleTime: 0 });
export const useConsoleMessages = () => useQuery({ queryKey: consoleKeys.messages(), queryFn: () => call(consoleApi.systemMessages, {}), staleTime: 0 });
export const useConsoleOutbox = (to: string) =>
  useQuery({ queryKey: consoleKeys.outbox(to), queryFn: () => call(consoleApi.outbox, { limit: 50, ...(to ? { to } : {}) }), staleTime: 0 });
export const useAudit = () => useQuery({ queryKey: consoleKeys.audit(), queryFn: () => call(consoleApi.auditLog, { limit: 100 }), staleTime: 0 });

/** A console change: afterwards every console list is read again (the audit log too). */
export function useConsoleAction<C extends CallDef>(def: C) {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<C>, ApiError, CallInput<C>>({
    mutationFn: (input) => call(def, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: consoleKeys.all }),
  });
}
