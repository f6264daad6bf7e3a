/**
 * Social server state: profiles, follow and bell, follower lists and user search. Every cached list
 * of users is kept as pages of `ListedUser`, so a follow toggle can patch them all at once.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { social } from '../../../common/api';
import type { PublicProfile } from '../../../common/api/social';
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
};

/** A user in any list: what a UserTile shows. Unknown values (a follower list has no likes) are left out. */
export interface ListedUser {
  user_id: number;
  username: string;
  avatar: string | null;
  likes?: number;
  overall_rating?: number;
  /** Unknown for another user's follower list entries: no Follow button is shown then. */
  am_following?: boolean;
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

export function useProfile(id: number | null) {
  return useQuery({
    queryKey: socialKeys.profile(id ?? 0),
    queryFn: async () => (await call(social.userLookup, { id: id ?? 0 })).user,
    enabled: id !== null,
  });
}

export function useFollowers(userId: number, search: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: socialKeys.followers(userId, search),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    enabled,
    queryFn: async ({ pageParam }): Promise<UserPage> => {
      const out = await call(social.followers, { user_id: userId, offset: pageParam, limit: PAGE_SIZE.followers, ...(search ? { search_text: search } : {}) });
      return { users: out.followers.map((u) => ({ user_id: u.user_id, username: u.username, avatar: u.avatar, place: place(u) })), total: out.total, offset: pageParam };
    },
  });
}

/** `viewerFollowsAll`: the list is the viewer's own, so every entry is someone they follow. */
export function useFollowing(userId: number, search: string, viewerFollowsAll: boolean, enabled = true) {
  return useInfiniteQuery({
    queryKey: socialKeys.following(userId, search),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    enabled,
    queryFn: async ({ pageParam }): Promise<UserPage> => {
      const out = await call(social.following, { id: userId, offset: pageParam, limit: PAGE_SIZE.followers, ...(search ? { search_text: search } : {}) });
      return {
        users: out.following.map((u) => ({
          user_id: u.user_id,
          username: u.username,
          avatar: u.avatar,
          place: place(u),
          ...(viewerFollowsAll ? { am_following: true } : {}),
        })),
        total: out.total,
        offset: pageParam,
      };
    },
  });
}

export function useUserSearch(term: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: socialKeys.search(term),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    enabled,
    queryFn: async ({ pageParam }): Promise<UserPage> => {
      const out = await call(social.searchUser, { search: term, offset: pageParam, limit: PAGE_SIZE.streams });
      return { users: out.users, total: out.total, offset: pageParam };
    },
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

/** Follow / unfollow: every cached copy changes at once and goes back with a toast if the server refuses. */
export function useToggleFollowing() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ id, follow }: { id: number; follow: boolean }) => call(social.toggleFollowing, { id, isFollowing: follow }),
    onMutate: async ({ id, follow }) => {
      const restore = await snapshotSocial(queryClient);
      patchProfile(queryClient, id, (p) => ({
        am_following: follow,
        // Following turns the bell on by default (spec part 1 §4).
        following_notify: follow,
        followers: Math.max(0, p.followers + (p.am_following === follow ? 0 : follow ? 1 : -1)),
      }));
      patchListedUser(queryClient, id, { am_following: follow });
      return { restore };
    },
    onError: (_error, _vars, context) => {
      context?.restore();
      toast({ title: MSG.followFailed, tone: 'error' });
    },
    onSuccess: (out, { id }) => {
      patchProfile(queryClient, id, () => ({ am_following: out.is_following, following_notify: out.notify, followers: out.followers }));
      patchListedUser(queryClient, id, { am_following: out.is_following });
    },
    // Counts shown elsewhere (the viewer's own following, the target's follower list) are now stale.
    onSettled: () => queryClient.invalidateQueries({ queryKey: socialKeys.all, refetchType: 'none' }),
  });
}

/** The bell: notifications from a followed user on or off, optimistic like the follow button. */
export function useToggleNotification() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ id, notify }: { id: number; notify: boolean }) => call(social.toggleNotification, { id, notify }),
    onMutate: async ({ id, notify }) => {
      const restore = await snapshotSocial(queryClient);
      patchProfile(queryClient, id, () => ({ following_notify: notify }));
      return { restore };
    },
    onError: (_error, _vars, context) => {
      context?.restore();
      toast({ title: MSG.notifyFailed, tone: 'error' });
    },
    onSuccess: (out, { id }) => patchProfile(queryClient, id, () => ({ following_notify: out.notify })),
  });
}
