/**
 * The query keys of streams and posts. Paying (a tip, a subscription, a purchase, an ad offer) changes
 * what a stream or a post shows its viewer, so features below streams and posts in the web's layering
 * refresh those caches by these keys; keeping them here lets the arrows between features point one way.
 */
export const streamKeys = {
  all: ['streams'] as const,
  own: () => [...streamKeys.all, 'own'] as const,
  lookup: (id: number) => [...streamKeys.all, 'lookup', id] as const,
  join: (id: number, preview: boolean) => [...streamKeys.all, 'join', id, preview] as const,
  lists: () => [...streamKeys.all, 'list'] as const,
  channel: (id: number) => [...streamKeys.lists(), 'channel', id] as const,
  everything: () => [...streamKeys.lists(), 'all'] as const,
  search: (term: string) => [...streamKeys.lists(), 'search', term] as const,
  user: (id: number, adult = false) => [...streamKeys.lists(), 'user', id, ...(adult ? ['adult'] : [])] as const,
  saved: () => [...streamKeys.lists(), 'saved'] as const,
};

export const postKeys = {
  all: ['posts'] as const,
  lookup: (id: number) => [...postKeys.all, 'lookup', id] as const,
  /** A post's comments (parent 0), or the replies to one comment. */
  comments: (postId: number, parentId: number | null) => [...postKeys.all, 'comments', postId, parentId ?? 0] as const,
  lists: () => [...postKeys.all, 'list'] as const,
  user: (id: number) => [...postKeys.lists(), 'user', id] as const,
  saved: () => [...postKeys.lists(), 'saved'] as const,
  channel: (id: number) => [...postKeys.lists(), 'channel', id] as const,
};
