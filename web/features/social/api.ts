/**
 * Social server state: profiles, follow and bell, follower lists and user search. Every cached list
 * of users is kept as pages of `ListedUser`, so a follow toggle can patch them all at once.
 */
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { social } from '../../../common/api/calls';
import type { follower, PublicProfile } from '../../../common/api/social';
import { PAGE_SIZE } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { call } from '../../api/client';
import { useToast } from '../../ui/Toast';

export const socialKeys = {
  all: ['social'] as const,
  profile: (id: number) => [...socialKeys.all, 'profile', id] as const,
  lists: () => [...socialKeys.all, 'list'] as const,
  followers: (userId: number, search: string) => [...socialKeys.lists(), 'followers', userId, search] as const,
  following: (userId: number, search: string) => [...socialKeys.lists(), 'following', userId, search] as const,
  search: (term: string) => [...socialKeys.lists(), 'search', term] as const,
  /** The side bar's followed channels (not a list a toggle patches: it is read again instead). */
  followedChannels: () => [...socialKeys.all, 'followed-channels'] as const,
  /** The viewer's own followers matching a search, for an invitation picker (meetings, toy access). */
  toInvite: (search: string) => [...socialKeys.all, 'to-invite', search] as const,
};

/** A user in any list: what a UserTile shows. Unknown values (a follower list has no likes) are left out. */
export interface ListedUser {
  user_id: number;
  username: string;
  avatar: string | null;
  likes?: number;
  overall_rating?: number;
  /** Whether the viewer follows this user (false for a guest). */
  am_following: boolean;
  place?: string;
}

export interface UserPage {
  users: ListedUser[];
  total: number;
  offset: number;
}

type UserPages = InfiniteData<UserPage, number>;

const nextOffset = (last: UserPage) => (last.offset + last.users.length < last.total && last.users.length > 0 ? last.offset + last.users.length : undefined);

const place = (u: { city: string; country: string }) => [u.city, u.country].filter(Boolean).join(', ') || undefined;

const listedFollower = (u: z.infer<typeof follower>): ListedUser => ({
  user_id: u.user_id,
  username: u.username,
  avatar: u.avatar,
  am_following: u.am_following,
  place: place(u),
});

/** The applied search of a follower list (see follower-search.ts); none is sent when it is empty. */
const searchFilter = (search: string) => (search ? { search_text: search } : {});

/** A list of users read a page at a time from `offset`. */
function useUserPages(queryKey: QueryKey, enabled: boolean, fetchPage: (offset: number) => Promise<Omit<UserPage, 'offset'>>) {
  return useInfiniteQuery({
    queryKey,
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    enabled,
    queryFn: async ({ pageParam }): Promise<UserPage> => ({ ...(await fetchPage(pageParam)), offset: pageParam }),
  });
}

export function useProfile(id: number | null) {
  return useQuery({
    queryKey: socialKeys.profile(id ?? 0),
    queryFn: async () => (await call(social.userLookup, { id: id ?? 0 })).user,
    enabled: id !== null,
  });
}

export function useFollowers(userId: number, search: string, enabled = true) {
  return useUserPages(socialKeys.followers(userId, search), enabled, async (offset) => {
    const out = await call(social.followers, { user_id: userId, offset, limit: PAGE_SIZE.followers, ...searchFilter(search) });
    return { users: out.followers.map(listedFollower), total: out.total };
  });
}

export function useFollowing(userId: number, search: string, enabled = true) {
  return useUserPages(socialKeys.following(userId, search), enabled, async (offset) => {
    const out = await call(social.following, { id: userId, offset, limit: PAGE_SIZE.followers, ...searchFilter(search) });
    return { users: out.following.map(listedFollower), total: out.total };
  });
}

export function useUserSearch(term: string, enabled: boolean) {
  return useUserPages(socialKeys.search(term), enabled, async (offset) => {
    const out = await call(social.searchUser, { search: term, offset, limit: PAGE_SIZE.streams });
    return { users: out.users, total: out.total };
  });
}

function patchProfile(queryClient: QueryClient, id: number, patch: (p: PublicProfile) => Partial<PublicProfile>) {
  queryClient.setQueryData<PublicProfile>(socialKeys.profile(id), (p) => (p ? { ...p, ...patch(p) } : p));
}

function patchListedUser(queryClient: QueryClient, id: number, patch: Partial<ListedUser>) {
  queryClient.setQueriesData<UserPages>({ queryKey: socialKeys.lists() }, (data) =>
    data && {
      ...data,
      pages: data.pages.map((page) => ({ ...page, users: page.users.map((u) => (u.user_id === id ? { ...u, ...patch } : u)) })),
    },
  );
}

/** Puts back every social answer as it was before an optimistic change. */
async function snapshotSocial(queryClient: QueryClient) {
  await queryClient.cancelQueries({ queryKey: socialKeys.all });
  const saved = queryClient.getQueriesData({ queryKey: socialKeys.all });
  return () => saved.forEach(([key, data]) => queryClient.setQueryData(key, data));
}

interface OptimisticToggle<V, O> {
  mutationFn: (vars: V) => Promise<O>;
  /** Changes the cached copies at once. */
  show: (queryClient: QueryClient, vars: V) => void;
  /** Keeps what the server answered. */
  confirm: (queryClient: QueryClient, out: O, vars: V) => void;
  /** The toast when the server refuses. */
  failure: string;
  onSettled?: (queryClient: QueryClient) => Promise<void>;
}

/** A social switch: it moves at once; a refusal puts every social answer back as it was, with a toast. */
function useOptimisticToggle<V, O>({ mutationFn, show, confirm, failure, onSettled }: OptimisticToggle<V, O>) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn,
    onMutate: async (vars: V) => {
      const restore = await snapshotSocial(queryClient);
      show(queryClient, vars);
      return { restore };
    },
    onError: (_error, _vars, context) => {
      context?.restore();
      toast({ title: failure, tone: 'error' });
    },
    onSuccess: (out, vars) => confirm(queryClient, out, vars),
    onSettled: () => onSettled?.(queryClient),
  });
}

/** Follow / unfollow: every cached copy of the user changes at once. */
export function useToggleFollowing() {
  return useOptimisticToggle({
    mutationFn: ({ id, follow }: { id: number; follow: boolean }) => call(social.toggleFollowing, { id, isFollowing: follow }),
    show: (queryClient, { id, follow }) => {
      patchProfile(queryClient, id, (p) => ({
        am_following: follow,
        // Following turns the bell on by default (spec part 1 §4).
        following_notify: follow,
        followers: Math.max(0, p.followers + (p.am_following === follow ? 0 : follow ? 1 : -1)),
      }));
      patchListedUser(queryClient, id, { am_following: follow });
    },
    confirm: (queryClient, out, { id }) => {
      patchProfile(queryClient, id, () => ({ am_following: out.is_following, following_notify: out.notify, followers: out.followers }));
      patchListedUser(queryClient, id, { am_following: out.is_following });
    },
    failure: MSG.followFailed,
    // Counts shown elsewhere (the viewer's own following, the target's follower list) are now stale.
    onSettled: async (queryClient) => {
      await queryClient.invalidateQueries({ queryKey: socialKeys.all, refetchType: 'none' });
      // The side bar shows whom the viewer follows: it changes now.
      await queryClient.refetchQueries({ queryKey: socialKeys.followedChannels(), type: 'active' });
    },
  });
}

/** The bell: notifications from a followed user on or off. */
export function useToggleNotification() {
  return useOptimisticToggle({
    mutationFn: ({ id, notify }: { id: number; notify: boolean }) => call(social.toggleNotification, { id, notify }),
    show: (queryClient, { id, notify }) => patchProfile(queryClient, id, () => ({ following_notify: notify })),
    confirm: (queryClient, out, { id }) => patchProfile(queryClient, id, () => ({ following_notify: out.notify })),
    failure: MSG.notifyFailed,
  });
}

/** The first page of the viewer's followers matching `search`: the people a meeting or a toy offer can invite. */
export const useFollowersToInvite = (search: string) =>
  useQuery({
    queryKey: socialKeys.toInvite(search),
    queryFn: () => call(social.followers, { ...(search ? { search_text: search } : {}), offset: 0, limit: PAGE_SIZE.followers }),
    placeholderData: keepPreviousData,
  });
