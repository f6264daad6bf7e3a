/** Where a person lands after logging in (spec part 1 §2 Login). */
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { settings } from '../../../common/api/calls';
import { DEFAULT_LOGIN_REDIRECT } from '../../../common/constants';
import { useSkinPath } from '../../app/skin';
import { call } from '../../api/client';
import { baseGroupQuery } from '../system';

/** The channel a viewer of 18+ streams lands on, by its name in the base group. */
const ADULT_LANDING_CHANNEL = 'Women';

/** A login waits this long at most for the lookups below; then it goes to the default page. */
const LOOKUP_TIMEOUT_MS = 5_000;

/** The link of the Women channel when the user shows 18+ streams and that channel exists; null otherwise. */
export function adultLandingLink(showsAdult: boolean | undefined, channels: ReadonlyArray<{ name: string; link: string }>): string | null {
  if (!showsAdult) return null;
  return channels.find((channel) => channel.name === ADULT_LANDING_CHANNEL)?.link ?? null;
}

async function lookUpAdultLanding(queryClient: QueryClient, userId: number): Promise<string | null> {
  // Both at once: the shell asks for the base group right after anyway, and finds it cached.
  const [preferences, channels] = await Promise.all([
    call(settings.getUserPreferences, { id: userId, sections: 'filters' }),
    queryClient.fetchQuery(baseGroupQuery(userId)),
  ]);
  return adultLandingLink(preferences.preferences.filters?.stream_show_18plus, channels);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface LoginLanding {
  /** Where a login goes without looking anything up: the `redirect` it was given, or the default page. */
  fallback: string;
  /**
   * Where a login that just succeeded goes: a page the person was sent from comes first; otherwise a
   * viewer of 18+ streams lands on the Women channel; otherwise the default page. A lookup that fails
   * or is slow falls back silently.
   */
  afterLogin: (userId: number) => Promise<string>;
}

export function useLoginLanding(redirect: string | null): LoginLanding {
  const queryClient = useQueryClient();
  const skinPath = useSkinPath();
  const fallback = redirect ?? skinPath(DEFAULT_LOGIN_REDIRECT);
  const afterLogin = useCallback(
    async (userId: number): Promise<string> => {
      if (redirect) return redirect;
      const link = await withTimeout(lookUpAdultLanding(queryClient, userId), LOOKUP_TIMEOUT_MS).catch(() => null);
      return link ? skinPath(link) : fallback;
    },
    [redirect, queryClient, skinPath, fallback],
  );
  return { fallback, afterLogin };
}
