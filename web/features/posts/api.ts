/**
 * Posts server state (common/api/posts.ts): one post as this viewer sees it, its comments, the post
 * listings (profile Photos and Saved, channel images), and every action on a post. Each action keeps
 * the cached lookup in step; listings are read again after a change.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { posts } from '../../../common/api/calls';
import type { CallInput, CallOutput } from '../../../common/api';
import { IDEMPOTENCY_HEADER } from '../../../common/api/descriptor';
import type { Comment, Post, PostTile } from '../../../common/api/posts';
import { PAGE_SIZE } from '../../../common/constants';
import { call, isApiError } from '../../api/client';
import type { ApiError } from '../../api/client';
import { postKeys } from '../../api/content-keys';
import { walletKeys } from '../wallet';
import { nextCommentOffset } from './comment-paging';
import type { CommentPage } from './comment-paging';


/** A video being transcoded is looked up again this often, for its progress and then its player (spec part 1 §2 Post view). */
export const PROCESSING_POLL_MS = 3000;

export const lookupPost = async (id: number): Promise<Post> => (await call(posts.postLookup, { id })).post;

export function usePostLookup(id: number) {
  return useQuery({
    queryKey: postKeys.lookup(id),
    queryFn: () => lookupPost(id),
    // Refusals (403, 404) are answers: the page shows them at once.
    retry: (count, error) => !isApiError(error) && count < 2,
    refetchInterval: (query) => (query.state.data?.state === 'processing' ? PROCESSING_POLL_MS : false),
  });
}

export interface TilePage {
  posts: PostTile[];
  total: number;
  offset: number;
}

/** A post listing read 50 at a time, the next page as the end of the grid comes into view. */
function usePostPages(queryKey: readonly unknown[], enabled: boolean, fetchPage: (page: { offset: number; limit: number }) => Promise<Omit<TilePage, 'offset'>>) {
  return useInfiniteQuery({
    queryKey,
    enabled,
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<TilePage> => ({ ...(await fetchPage({ offset: pageParam, limit: PAGE_SIZE.streams })), offset: pageParam }),
    getNextPageParam: (last) => (last.posts.length > 0 && last.offset + last.posts.length < last.total ? last.offset + last.posts.length : undefined),
  });
}

/** The profile's Photos tab (user-posts). */
export const useUserPosts = (userId: number) => usePostPages(postKeys.user(userId), userId > 0, (page) => call(posts.userPosts, { id: userId, ...page }));
/** The owner's bookmarked posts (profile Saved tab). */
export const useSavedPosts = (enabled = true) => usePostPages(postKeys.saved(), enabled, (page) => call(posts.savedPosts, page));
/** A channel's image tiles (list-channel-posts). */
export const useChannelPosts = (channelId: number) =>
  usePostPages(postKeys.channel(channelId), channelId > 0, (page) => call(posts.listChannelPosts, { id: channelId, ...page }));

/** A post's comments, or one comment's replies, 10 a page, oldest first. */
export function useComments(postId: number, parentId: number | null, enabled = true) {
  return useInfiniteQuery({
    queryKey: postKeys.comments(postId, parentId),
    enabled,
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<CommentPage> => ({
      ...(await call(posts.commentList, { post_id: postId, ...(parentId ? { parent_id: parentId } : {}), offset: pageParam, limit: PAGE_SIZE.comments })),
      offset: pageParam,
    }),
    getNextPageParam: nextCommentOffset,
  });
}

const setPost = (queryClient: QueryClient, id: number, change: (post: Post) => Post) =>
  queryClient.setQueryData<Post>(postKeys.lookup(id), (old) => old && change(old));

/** Comments (or a reply, with parentId). The post's count goes up; the lists are left as read (the page adds the new one). */
export function useCreateComment(postId: number) {
  const queryClient = useQueryClient();
  return useMutation<Comment, ApiError, { body: string; parentId: number | null }>({
    mutationFn: async ({ body, parentId }) => (await call(posts.createComment, { post_id: postId, body, ...(parentId ? { parent_id: parentId } : {}) })).comment,
    onSuccess: (_comment, { parentId }) => {
      setPost(queryClient, postId, (p) => ({ ...p, comments: p.comments + 1 }));
      if (parentId === null) return;
      // The parent's "View N replies" counts the new one.
      for (const [key] of queryClient.getQueriesData({ queryKey: [...postKeys.all, 'comments', postId] })) {
        queryClient.setQueryData<{ pages: CommentPage[]; pageParams: unknown[] }>(key, (old) =>
          old && { ...old, pages: old.pages.map((page) => ({ ...page, comments: page.comments.map((c) => (c.comment_id === parentId ? { ...c, replies: c.replies + 1 } : c)) })) },
        );
      }
    },
  });
}

/** Like or take the like back: shown at once, put back when refused, the server's counts when answered. */
export function useLikePost(postId: number) {
  const queryClient = useQueryClient();
  const key = postKeys.lookup(postId);
  return useMutation<CallOutput<typeof posts.likePost>, ApiError, boolean, { before: Pick<Post, 'likes' | 'viewer_likes'> } | undefined>({
    mutationFn: (like) => call(posts.likePost, { post_id: postId, like }),
    onMutate: async (like) => {
      await queryClient.cancelQueries({ queryKey: key });
      const old = queryClient.getQueryData<Post>(key);
      if (!old) return undefined;
      const liked = old.viewer_likes > 0;
      if (liked !== like) setPost(queryClient, postId, (p) => ({ ...p, viewer_likes: like ? 1 : 0, likes: Math.max(0, p.likes + (like ? 1 : -1)) }));
      return { before: { likes: old.likes, viewer_likes: old.viewer_likes } };
    },
    onError: (_error, _like, context) => {
      if (context) setPost(queryClient, postId, (p) => ({ ...p, ...context.before }));
    },
    onSuccess: ({ likes, viewer_likes }) => setPost(queryClient, postId, (p) => ({ ...p, likes, viewer_likes })),
  });
}

/** The bookmark (spec part 1 §5 Bookmark): on at once, back off when the server refuses. */
export function useSavePost(postId: number) {
  const queryClient = useQueryClient();
  const key = postKeys.lookup(postId);
  return useMutation<CallOutput<typeof posts.savePost>, ApiError, boolean, { before: boolean } | undefined>({
    mutationFn: (save) => call(posts.savePost, { post_id: postId, save }),
    onMutate: async (save) => {
      // A lookup arriving mid-flight would put the old flag back.
      await queryClient.cancelQueries({ queryKey: key });
      const old = queryClient.getQueryData<Post>(key);
      if (!old) return undefined;
      setPost(queryClient, postId, (p) => ({ ...p, saved: save }));
      return { before: old.saved };
    },
    onError: (_error, _save, context) => {
      if (context) setPost(queryClient, postId, (p) => ({ ...p, saved: context.before }));
    },
    onSuccess: ({ saved }) => setPost(queryClient, postId, (p) => ({ ...p, saved })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: postKeys.saved() }),
  });
}

/** One purchase attempt: its key is made at the click and sent again with a retry of it, so the post is paid once. */
export interface PurchaseAttempt {
  key: string;
}

/** Buys the post with coins. The lookup is read again by the page once the paywall modal has shown (it brings the media). */
export function usePurchasePost(postId: number) {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof posts.purchasePost>, ApiError, PurchaseAttempt>({
    mutationFn: ({ key }) => call(posts.purchasePost, { post_id: postId }, { [IDEMPOTENCY_HEADER]: key }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      void queryClient.invalidateQueries({ queryKey: postKeys.lists() });
    },
  });
}

export function useEditPost(postId: number) {
  const queryClient = useQueryClient();
  return useMutation<Post, ApiError, Omit<CallInput<typeof posts.editPost>, 'post_id'>>({
    mutationFn: async (change) => (await call(posts.editPost, { post_id: postId, ...change })).post,
    onSuccess: (post) => {
      queryClient.setQueryData(postKeys.lookup(postId), post);
      void queryClient.invalidateQueries({ queryKey: postKeys.lists() });
    },
  });
}

export function useDeletePost(postId: number) {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof posts.deletePost>, ApiError, void>({
    mutationFn: () => call(posts.deletePost, { post_id: postId }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: postKeys.lookup(postId) });
      void queryClient.invalidateQueries({ queryKey: postKeys.lists() });
    },
  });
}

type ReportInput = Omit<CallInput<typeof posts.reportPost>, 'post_id'>;

export const useReportPost = (postId: number) =>
  useMutation<CallOutput<typeof posts.reportPost>, ApiError, ReportInput>({ mutationFn: (input) => call(posts.reportPost, { post_id: postId, ...input }) });

export const useReportComment = (commentId: number) =>
  useMutation<CallOutput<typeof posts.reportComment>, ApiError, ReportInput>({ mutationFn: (input) => call(posts.reportComment, { comment_id: commentId, ...input }) });

/** Publishes the post from finished uploads; the author's Photos tab is read again. */
export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof posts.createPost>, ApiError, CallInput<typeof posts.createPost>>({
    mutationFn: (input) => call(posts.createPost, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: postKeys.lists() }),
  });
}
