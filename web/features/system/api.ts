/** System server state: installation config, countries, base channels and system messages. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { system } from '../../../common/api/calls';
import { call } from '../../api/client';

export const systemKeys = {
  all: ['system'] as const,
  appConfig: () => [...systemKeys.all, 'app-config'] as const,
  countries: () => [...systemKeys.all, 'countries'] as const,
  /** The server leaves Following out for guests, so the list is per viewer. */
  baseGroup: (userId: number | null) => [...systemKeys.all, 'base-group', userId ?? 'guest'] as const,
  messages: (locale: string) => [...systemKeys.all, 'messages', locale] as const,
};

const LONG = 10 * 60_000;

export function useAppConfig() {
  return useQuery({ queryKey: systemKeys.appConfig(), queryFn: () => call(system.appConfig, {}), staleTime: LONG });
}

export function useCountries() {
  return useQuery({
    queryKey: systemKeys.countries(),
    queryFn: async () => (await call(system.getCountries, {})).countries,
    staleTime: Infinity,
  });
}

/** The base channels as `userId` sees them; also fetched right after a login (see login-landing). */
export function baseGroupQuery(userId: number | null) {
  return queryOptions({
    queryKey: systemKeys.baseGroup(userId),
    queryFn: async () => (await call(system.baseGroup, {})).channels,
    staleTime: LONG,
  });
}

export function useBaseGroup(userId: number | null) {
  return useQuery(baseGroupQuery(userId));
}

export function useSystemMessages(locale: string, enabled: boolean) {
  return useQuery({
    queryKey: systemKeys.messages(locale),
    queryFn: async () => (await call(system.getSystemMessages, { locale })).messages,
    enabled,
    staleTime: Infinity,
  });
}
