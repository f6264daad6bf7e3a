/**
 * Image and video posts: create from finished uploads, look up, list, buy, like, save, comment, report
 * (spec part 1 §2 Post view, Upload, Profile, Channels; §3 Post, Comment; §5; part 2 §7, §9).
 */
import { z } from 'zod';
import { PAGE_SIZE } from '../constants';
import { fill, MSG } from '../messages';
import { defineCall, success } from './define';
import { flag, numeric, oneOf, optionalText, userId } from './fields';
import { COMPLAINT_TYPES } from './stream-interactions';
import { RATINGS } from './streams';
import { POST_SCHEDULE_MAX_DAYS } from '../rules/post-schedule';

export const POST_AUDIENCES = ['public', 'followers', 'subscribers', 'private'] as const;
export type PostAudience = (typeof POST_AUDIENCES)[number];
export const POST_KINDS = ['image', 'video'] as const;
export type PostKind = (typeof POST_KINDS)[number];
/** A video post is `processing` until its transcode finished (`ready`) or failed (`failed`); image posts are ready at once. */
export const POST_STATES = ['processing', 'ready', 'failed'] as const;
export type PostState = (typeof POST_STATES)[number];

export const POST_TITLE = { min: 2, max: 100 } as const;
export const POST_DESCRIPTION_MAX = 2000;
/** Images one post may carry (one per carousel page). */
export const POST_IMAGES_MAX = 10;
export const COMMENT = { min: 3, max: 1000 } as const;

export const postId = numeric(z.number({ error: MSG.mustBePostId }).int(MSG.mustBePostId).positive(MSG.mustBePostId).max(Number.MAX_SAFE_INTEGER, MSG.mustBePostId));
export const commentId = numeric(z.number({ error: MSG.mustBeCommentId }).int(MSG.mustBeCommentId).positive(MSG.mustBeCommentId).max(Number.MAX_SAFE_INTEGER, MSG.mustBeCommentId));
/** A finished upload's id: the last part of the address the upload server gave (`/uploads/<id>`). */
export const uploadId = z.string({ error: MSG.uploadUnknown }).regex(/^[\w-]{1,64}$/, MSG.uploadUnknown);
/** A medium of the caller's vault (decision 0088). */
export const vaultMediumId = numeric(z.number({ error: MSG.mustBeMediaId }).int(MSG.mustBeMediaId).positive(MSG.mustBeMediaId).max(Number.MAX_SAFE_INTEGER, MSG.mustBeMediaId));

const page = (max: number) => ({
  offset: numeric(z.number().int().min(0).max(100_000).default(0)),
  limit: numeric(z.number().int().min(1).max(max).default(max)),
});

export const postMedia = z.object({
  media_id: z.number(),
  type: z.enum(POST_KINDS),
  /** Signed for this viewer, short-lived: the full image, or the video's HLS playlist. */
  url: z.string(),
  thumb_url: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  /** Seconds, for a video. */
  duration: z.number().nullable(),
});
export type PostMedia = z.infer<typeof postMedia>;

export const post = z.object({
  post_id: z.number(),
  user_id: z.number(),
  user_name: z.string(),
  user_avatar: z.string().nullable(),
  entry_date: z.string(),
  title: z.string(),
  description: z.string(),
  kind: z.enum(POST_KINDS),
  state: z.enum(POST_STATES),
  /** 0–100 while processing. */
  progress: z.number(),
  /** Why a video failed, for its owner. */
  failure: z.string().nullable(),
  audience: z.enum(POST_AUDIENCES),
  content_rating: z.enum(RATINGS),
  expires: z.string().nullable(),
  /** Not shown to others before `entry_date` (its owner's own view only). */
  scheduled: z.boolean(),
  /** Empty until the viewer may see the media (paid, or the owner); `media_count` still says how many. */
  media: z.array(postMedia),
  media_count: z.number(),
  /** The price in coins; 0 is free. */
  tip_viewer_min_amount: z.number(),
  /** What a subscriber of the creator pays, after the plan's discount. */
  tip_subscriber_min_amount: z.number(),
  tip_subscriber_discount: z.number(),
  tip_currency: z.literal('con'),
  /** What this viewer pays (the viewer or subscriber minimum). */
  price: z.number(),
  has_paid: z.boolean(),
  likes: z.number(),
  viewer_likes: z.number(),
  comments: z.number(),
  comments_allowed: z.boolean(),
  saved: z.boolean(),
  /**
   * Only the teaser of a subscribers-only post, for someone not subscribed: no media nor description,
   * the blurred tile, the counts; subscribing opens it.
   */
  teaser: z.boolean(),
  /** A tile image: the first image (or a video's poster), blurred while the viewer has not paid. */
  thumb_url: z.string().nullable(),
});
export type Post = z.infer<typeof post>;

export const postTile = z.object({
  post_id: z.number(),
  user_id: z.number(),
  username: z.string(),
  avatar: z.string().nullable(),
  title: z.string(),
  kind: z.enum(POST_KINDS),
  state: z.enum(POST_STATES),
  audience: z.enum(POST_AUDIENCES),
  thumb_url: z.string().nullable(),
  media_count: z.number(),
  duration: z.number().nullable(),
  tip_viewer_min_amount: z.number(),
  has_paid: z.boolean(),
  likes: z.number(),
  /** When the post appears (or appeared) to others. */
  entry_date: z.string(),
  /** Not shown to others before `entry_date` (the owner's own listings only). */
  scheduled: z.boolean(),
});
export type PostTile = z.infer<typeof postTile>;

export const comment = z.object({
  comment_id: z.number(),
  post_id: z.number(),
  user_id: z.number(),
  parent_id: z.number().nullable(),
  thread_id: z.number(),
  body: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  entry_date: z.string(),
  /** Replies to this comment (a page of them comes from comment-list with parent_id). */
  replies: z.number(),
});
export type Comment = z.infer<typeof comment>;

const audienceField = z.enum(POST_AUDIENCES, { error: (i) => (i.input === undefined || i.input === '' ? MSG.audienceRequired : oneOf(POST_AUDIENCES)) });
const titleField = z.string({ error: fill(MSG.titleTooShort, { min: POST_TITLE.min }) }).trim()
  .min(POST_TITLE.min, fill(MSG.titleTooShort, { min: POST_TITLE.min }))
  .max(POST_TITLE.max, fill(MSG.atMostChars, { max: POST_TITLE.max }));
export const reportFields = {
  type: z.enum(COMPLAINT_TYPES, { error: (i) => (i.input === undefined || i.input === '' ? MSG.complaintTypeRequired : oneOf(COMPLAINT_TYPES)) }),
  user_comment: optionalText(1000),
};

export const createPost = defineCall({
  method: 'POST',
  path: '/api/post/create',
  refusals: [403, 404, 429, 507],
  summary: 'Publishes a post from the caller’s finished uploads (images, or one .mov/.mp4 video that is then transcoded); tip above 0 makes it paid; `publish_at` schedules it (others see it from then on)',
  input: z.strictObject({
    type: z.enum(POST_KINDS, { error: oneOf(POST_KINDS) }),
    title: titleField,
    description: optionalText(POST_DESCRIPTION_MAX),
    audience: audienceField,
    content_rating: z.enum(RATINGS, { error: oneOf(RATINGS) }).default('G'),
    /** Empty (now), or when the post appears to others: in the future, at most POST_SCHEDULE_MAX_DAYS ahead. */
    publish_at: z.iso.datetime({ offset: true, error: fill(MSG.publishAtFuture, { days: POST_SCHEDULE_MAX_DAYS }) }).nullable().optional(),
    /** Empty, or a moment in the future after which the post is no longer shown. */
    expires: z.iso.datetime({ offset: true, error: MSG.expiryInFuture }).nullable().optional(),
    /** Coins; rounded up to a multiple of 10 and held between the limits (0: free). */
    tip: numeric(z.number({ error: MSG.mustBeWholeNumber }).int(MSG.mustBeWholeNumber).min(0, MSG.tipPositive).max(1_000_000, MSG.mustBeWholeNumber)).default(0),
    comments_allowed: flag.default(true),
    upload_ids: z.array(uploadId, { error: MSG.selectImages }).max(POST_IMAGES_MAX, fill(MSG.tooManyImages, { max: POST_IMAGES_MAX })).default([]),
    /** Media of the caller's vault to reuse (decision 0088), after the uploads' media. */
    vault_ids: z.array(vaultMediumId, { error: MSG.selectImages }).max(POST_IMAGES_MAX, fill(MSG.tooManyImages, { max: POST_IMAGES_MAX })).default([]),
  }).refine((i) => i.upload_ids.length + i.vault_ids.length > 0, { message: MSG.selectImages, path: ['upload_ids'] })
    .refine((i) => i.upload_ids.length + i.vault_ids.length <= POST_IMAGES_MAX, { message: fill(MSG.tooManyImages, { max: POST_IMAGES_MAX }), path: ['upload_ids'] })
    .meta({ examples: [{ type: 'image', title: 'Sunset', audience: 'public', tip: 0, upload_ids: ['q0Zt3x8yHk2mVb7wLr1sPa9c'] }] }),
  output: success({ post_id: z.number() }),
});

export const postLookup = defineCall({
  method: 'GET',
  path: '/api/post/post-lookup',
  refusals: [403, 404],
  summary: 'One post as this viewer sees it: its media addresses (signed for the viewer) once the viewer may see them',
  input: z.strictObject({ id: postId }),
  output: success({ post }),
});

export const commentList = defineCall({
  method: 'GET',
  path: '/api/post/comment-list',
  refusals: [403, 404],
  summary: 'A post’s comments, oldest first, 10 a page; with parent_id, the replies to that comment',
  input: z.strictObject({ post_id: postId, parent_id: commentId.optional(), ...page(PAGE_SIZE.comments) }),
  output: success({ comments: z.array(comment), total: z.number() }),
});

export const createComment = defineCall({
  method: 'POST',
  path: '/api/post/create-comment',
  refusals: [403, 404, 429],
  summary: 'Comments on a post the caller may see, or replies to a comment (parent_id)',
  input: z.strictObject({
    post_id: postId,
    parent_id: commentId.optional(),
    body: z.string({ error: MSG.leaveMessage }).trim().min(COMMENT.min, MSG.leaveMessage).max(COMMENT.max, fill(MSG.atMostChars, { max: COMMENT.max })),
  }),
  output: success({ comment }),
});

export const purchasePost = defineCall({
  method: 'POST',
  path: '/api/post/purchase',
  refusals: [402, 403, 404, 409],
  idempotencyKey: 'optional',
  summary: 'Buys a paid post with coins (one ledger transfer); buying again answers the first purchase',
  input: z.strictObject({ post_id: postId }),
  output: success({ has_paid: z.literal(true), balance: z.number() }),
});

export const likePost = defineCall({
  method: 'POST',
  path: '/api/post/like',
  refusals: [403, 404],
  summary: 'Likes a post (like true) or takes the like back; one like per person, not one’s own post',
  input: z.strictObject({ post_id: postId, like: flag.default(true) }),
  output: success({ likes: z.number(), viewer_likes: z.number() }),
});

export const deletePost = defineCall({
  method: 'POST',
  path: '/api/post/delete',
  refusals: [403, 404],
  summary: 'Deletes a post (its owner, or a moderator) and its files',
  input: z.strictObject({ post_id: postId }),
  output: success({}),
});

export const editPost = defineCall({
  method: 'POST',
  path: '/api/post/edit',
  refusals: [403, 404],
  summary: 'Changes a post’s audience, title or description (its owner; a private post’s audience stays)',
  input: z.strictObject({
    post_id: postId,
    audience: audienceField.optional(),
    title: titleField.optional(),
    description: optionalText(POST_DESCRIPTION_MAX),
  }),
  output: success({ post }),
});

export const reportPost = defineCall({
  method: 'POST',
  path: '/api/post/report',
  refusals: [403, 404],
  summary: 'Files a complaint about a post (not one’s own); a new one replaces the caller’s earlier one',
  input: z.strictObject({ post_id: postId, ...reportFields }),
  output: success({}),
});

export const reportComment = defineCall({
  method: 'POST',
  path: '/api/comment/report',
  refusals: [403, 404],
  summary: 'Files a complaint about a comment (not one’s own)',
  input: z.strictObject({ comment_id: commentId, ...reportFields }),
  output: success({}),
});

export const savePost = defineCall({
  method: 'POST',
  path: '/api/post/save',
  refusals: [403, 404],
  summary: 'Bookmarks a post (save true) or removes the bookmark; not one’s own post',
  input: z.strictObject({ post_id: postId, save: flag }),
  output: success({ saved: z.boolean() }),
});

export const savedPosts = defineCall({
  method: 'GET',
  path: '/api/post/saved-posts',
  summary: 'The caller’s bookmarked posts, newest bookmark first (profile Saved tab)',
  input: z.strictObject({ ...page(PAGE_SIZE.streams) }),
  output: success({ posts: z.array(postTile), total: z.number() }),
});

export const userPosts = defineCall({
  method: 'GET',
  path: '/api/post/user-posts',
  summary: 'A user’s posts the caller may see, newest first (profile Photos tab)',
  input: z.strictObject({ id: userId, ...page(PAGE_SIZE.streams) }),
  output: success({ posts: z.array(postTile), total: z.number() }),
});

export const listChannelPosts = defineCall({
  method: 'GET',
  path: '/api/channel/list-channel-posts',
  refusals: [404],
  summary: 'Public posts of a channel’s broadcasters (the channel image tiles), newest first',
  input: z.strictObject({ id: numeric(z.number().int().positive().max(2_147_483_647)), ...page(PAGE_SIZE.streams) }),
  output: success({ posts: z.array(postTile), total: z.number() }),
});

/** Where the resumable upload server lives (tus: POST to create, HEAD for the offset, PATCH a chunk). */
export const UPLOADS_PATH = '/uploads';
