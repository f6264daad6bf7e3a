/**
 * An offer's creative, from a finished upload into its storage folder `ads/<random>/`: a banner or chat
 * image rendered as WebP without metadata (as posts' images are), or a pre-roll video transcoded to
 * H.264/AAC (at most 720 lines) and written as one progressive MP4 with a poster — what our player and
 * any VAST player take. A refused file stores nothing; the caller removes the upload either way.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { AdType } from '../../../common/api/ads';
import { AD } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { badRequest } from '../../platform/http/errors';
import { POSTER_FILE, probeVideo, renditionToMp4, transcodeToHls, VideoRefused } from '../../platform/media/video-transcode';
import type { FileStore } from '../../platform/storage/storage';
import { ImageRefused, inspectImage, renderImage } from '../../platform/uploads/images';

export const CREATIVE_FILES = { image: 'image.webp', video: 'creative.mp4', poster: POSTER_FILE } as const;
export type CreativeFile = (typeof CREATIVE_FILES)[keyof typeof CREATIVE_FILES];
export const isCreativeFile = (file: string): file is CreativeFile => (Object.values(CREATIVE_FILES) as string[]).includes(file);
export const CREATIVE_TYPES: Record<CreativeFile, string> = { 'image.webp': 'image/webp', 'creative.mp4': 'video/mp4', 'poster.jpg': 'image/jpeg' };

export interface StoredCreative {
  key: string;
  width: number;
  height: number;
  durationSeconds: number | null;
}

/** Pre-rolls are videos; banner and chat offers are images. */
export const creativeKind = (type: AdType) => (type === 'PREROLL' ? 'video' : 'image');

/** The file a page shows for the offer: the image, or the pre-roll's poster. */
export const pictureOf = (type: AdType): CreativeFile => (type === 'PREROLL' ? CREATIVE_FILES.poster : CREATIVE_FILES.image);

/** `source`: a file, or a picture in memory (banner and chat offers only). */
export async function storeCreative(files: FileStore, source: string | Buffer, type: AdType): Promise<StoredCreative> {
  const key = `ads/${randomUUID()}`;
  try {
    if (creativeKind(type) === 'image') return await storeImage(files, key, source);
    if (typeof source !== 'string') throw new Error('a pre-roll creative is a video file');
    return await storeVideo(files, key, source);
  } catch (error) {
    await removeCreative(files, key);
    if (error instanceof ImageRefused) throw badRequest(MSG.notAnImage, 'upload_id');
    if (error instanceof VideoRefused) throw badRequest(MSG.notAVideo, 'upload_id');
    throw error;
  }
}

export const removeCreative = (files: FileStore, key: string) => files.removeFolder(key);

async function storeImage(files: FileStore, key: string, source: string | Buffer): Promise<StoredCreative> {
  await inspectImage(source);
  const image = await renderImage(source, 'full');
  await files.put(`${key}/${CREATIVE_FILES.image}`, image.data);
  return { key, width: image.width, height: image.height, durationSeconds: null };
}

async function storeVideo(files: FileStore, key: string, source: string): Promise<StoredCreative> {
  const facts = await probeVideo(source);
  if (facts.durationSeconds > AD.prerollMaxSeconds) throw badRequest(fill(MSG.adsPrerollTooLong, { max: AD.prerollMaxSeconds }), 'upload_id');
  // The HLS transcode is a step on the way, in a work directory: only its top rendition, copied into one file, and the poster are stored.
  return files.withWorkDir(async (work) => {
    const hls = await transcodeToHls(source, path.join(work, 'hls'));
    const video = path.join(work, CREATIVE_FILES.video);
    await renditionToMp4(path.join(work, 'hls', hls.renditions[0]!.playlist), video);
    await files.putFile(`${key}/${CREATIVE_FILES.video}`, video, { move: true });
    await files.putFile(`${key}/${CREATIVE_FILES.poster}`, path.join(work, 'hls', hls.poster), { move: true });
    return { key, width: hls.width, height: hls.height, durationSeconds: hls.durationSeconds };
  });
}
