/** Accounts server state: the session user, its watch, login / sign-up / logout and interests. */
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { accounts, socialLogin } from '../../../common/api/calls';
import type { CallDef, CallDescriptor, CallInput } from '../../../common/api/define';
import type { SessionUser } from '../../../common/api/accounts';
import { LOGGED_IN_MIN_USER_ID, SESSION_CHECK_INTERVAL_MS } from '../../../common/constants';
import { call, isApiError, resetCsrfToken } from '../../api/client';
import { trackEvent } from '../system';

export const accountKeys = {
  all: ['accounts'] as const,
  session: () => [...accountKeys.all, 'session'] as const,
  sessionCheck: () => [...accountKeys.all, 'session-check'] as const,
  interests: () => [...accountKeys.all, 'interests'] as const,
  userInterests: (userId: number) => [...accountKeys.all, 'interests', userId] as const,
};

async function fetchSessionUser(): Promise<SessionUser | null> {
  try {
    return (await call(accounts.sessionDetail, {})).user;
  } catch (error) {
    if (isApiError(error, 'unauthorized')) return null;
    throw error;
  }
}

export function isLoggedIn(user: SessionUser | null | undefined): user is SessionUser {
  return !!user && user.user_id > LOGGED_IN_MIN_USER_ID;
}

export interface Session {
  user: SessionUser | null;
  isLoggedIn: boolean;
  /** True until the first answer about the session has arrived. */
  isPending: boolean;
}

/** The session user, asked once per page load (a sign-in or sign-out replaces it). */
const sessionQuery = { queryKey: accountKeys.session(), queryFn: fetchSessionUser, staleTime: Infinity };

export function useSession(): Session {
  const query = useQuery(sessionQuery);
  const user = query.data ?? null;
  return { user: isLoggedIn(user) ? user : null, isLoggedIn: isLoggedIn(user), isPending: query.isPending };
}

/**
 * `asMember(action, guest)`: runs `action` for a signed-in visitor and `guest` (the login prompt) for a guest.
 * A click that comes while the session is still loading waits for its answer rather than taking a member
 * for a guest; once the session is known it runs at once.
 */
export function useMemberAction(): (action: (user: SessionUser) => void, guest: () => void) => void {
  const client = useQueryClient();
  return useCallback(
    (action, guest) => {
      const known = client.getQueryData<SessionUser | null>(accountKeys.session());
      if (known !== undefined) return isLoggedIn(known) ? action(known) : guest();
      void client
        .fetchQuery(sessionQuery)
        .then((user) => (isLoggedIn(user) ? action(user) : guest()), guest);
    },
    [client],
  );
}

/** Polls the session while signed in; when the server says it ended, the cached user goes. */
export function useSessionWatch(enabled: boolean): void {
  const queryClient = useQueryClient();
  useQuery({
    queryKey: accountKeys.sessionCheck(),
    enabled,
    refetchInterval: SESSION_CHECK_INTERVAL_MS,
    refetchIntervalInBackground: false,
    queryFn: async () => {
      const state = await call(accounts.checkUserSession, {});
      if (!state.is_logged_in || state.user_id <= LOGGED_IN_MIN_USER_ID) signedOut(queryClient);
      return state;
    },
  });
}

function signedIn(queryClient: QueryClient, user: SessionUser, action: 'user_login' | 'user_registered'): void {
  resetCsrfToken();
  queryClient.setQueryData(accountKeys.session(), user);
  void trackEvent(action, { user_id: user.user_id });
}

/** Replaces the cached session user with a fresher copy (after settings or avatar changes). */
export function setSessionUser(queryClient: QueryClient, user: SessionUser): void {
  queryClient.setQueryData(accountKeys.session(), user);
}

const SESSION_KEYS = new Set(['session', 'session-check']);

/** Drops every cached answer of the old session. Reset, not removed: mounted queries keep their observers. */
export function signedOut(queryClient: QueryClient): void {
  resetCsrfToken();
  queryClient.setQueryData(accountKeys.session(), null);
  void queryClient.resetQueries({
    predicate: (query) => !(query.queryKey[0] === accountKeys.all[0] && SESSION_KEYS.has(String(query.queryKey[1]))),
  });
}

/** A call whose answer is a new session: the cached user is replaced and the event tracked. */
function useSignInCall<C extends CallDescriptor<CallDef & { output: z.ZodType<{ user: SessionUser }> }>>(def: C, action: 'user_login' | 'user_registered') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<C>) => call(def, input),
    onSuccess: (out) => signedIn(queryClient, out.user, action),
  });
}

export function useLogin() {
  return useSignInCall(accounts.login, 'user_login');
}

export function useRegister() {
  return useSignInCall(accounts.register, 'user_registered');
}

/** Finishes a social sign-in with the callback's ticket; a new identity answers 409 (see SOCIAL_CODES). */
export function useSocialLogin() {
  return useSignInCall(socialLogin.userSocialLogin, 'user_login');
}

export function useSocialRegister() {
  return useSignInCall(socialLogin.socialRegister, 'user_registered');
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await call(accounts.logout, {});
      } catch (error) {
        if (!isApiError(error, 'unauthorized')) throw error;
      }
    },
    onSettled: () => signedOut(queryClient),
  });
}

export function useInterestList(enabled = true) {
  return useQuery({
    queryKey: accountKeys.interests(),
    queryFn: async () => (await call(accounts.getInterestList, {})).interests,
    enabled,
    staleTime: 10 * 60_000,
  });
}

export function useAddInterests() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<typeof accounts.addUserInterest>) => call(accounts.addUserInterest, input),
    onSuccess: (out, input) => queryClient.setQueryData(accountKeys.userInterests(Number(input.id)), out.interests),
  });
}

/** The interests a person chose (settings). */
export function useUserInterests(userId: number) {
  return useQuery({
    queryKey: accountKeys.userInterests(userId),
    queryFn: async () => (await call(accounts.userInterestList, { id: userId })).interests,
  });
}

export function useAcceptTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(accounts.updateUserInfo, { id, params: { terms_accepted: true } }),
    onSuccess: (out) => setSessionUser(queryClient, out.user),
  });
}
