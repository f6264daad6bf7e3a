/**
 * A creator's vault (our addition, decision 0088): the photos and videos they uploaded, for posts or on
 * their own, to reuse in new posts (`post/create`'s `vault_ids`) and in messages (`media_id`).
 */
import { z } from 'zod';
import { MSG } from '../messages';
import { defineCall, success } from './define';
import { wholeNumber } from './fields';
import { POST_IMAGES_MAX, POST_KINDS, uploadId } from './posts';

export { vaultMediumId } from './posts';

export const MEDIUM_STATES = ['processing', 'ready', 'failed'] as const;

/** A photo or video as a page shows it: addresses signed for the caller, `url` null while it is locked or not ready. */
export const medium = z.object({
  media_id: z.number(),
  type: z.enum(POST_KINDS),
  state: z.enum(MEDIUM_STATES),
  width: z.number().nullable(),
  height: z.number().nullable(),
  duration: z.number().nullable(),
  /** The full image or the video's playlist; null while locked (then `thumb_url` is the blurred tile) or not ready. */
  url: z.string().nullable(),
  thumb_url: z.string().nullable(),
});
export type Medium = z.infer<typeof medium>;

export const vaultItem = medium.extend({
  created_time: z.iso.datetime(),
  /** Uploaded for a post (else for the vault or a message). */
  in_post: z.boolean(),
});
export type VaultItem = z.infer<typeof vaultItem>;

export const vaultList = defineCall({
  method: 'GET',
  path: '/api/vault',
  summary: "The caller's vault: every photo and video they uploaded and still keep, the newest first",
  input: z.strictObject({ offset: wholeNumber(0, 1_000_000).default(0), limit: wholeNumber(1, 60).default(30) }),
  output: success({ items: z.array(vaultItem), total: z.number() }),
});

export const vaultAdd = defineCall({
  method: 'POST',
  path: '/api/vault/add',
  refusals: [403, 404],
  summary: 'Keeps finished uploads in the caller’s vault, each a medium of its own (a .mov/.mp4 video is transcoded first)',
  input: z.strictObject({
    upload_ids: z.array(uploadId, { error: MSG.selectImages }).min(1, MSG.selectImages).max(POST_IMAGES_MAX),
  }).meta({ examples: [{ upload_ids: ['q0Zt3x8yHk2mVb7wLr1sPa9c'] }] }),
  output: success({ items: z.array(vaultItem) }),
});
