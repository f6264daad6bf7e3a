/**
 * A post's files in storage: image uploads rendered into their sizes, a video upload moved into its
 * folder to wait for its transcode. What is refused is stored nowhere.
 */
import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import { fill, MSG } from '../../../common/messages';
import { badRequest } from '../../platform/http/errors';
import { probeVideo, VideoRefused } from '../../platform/media/video-transcode';
import type { FileStore } from '../../platform/storage/storage';
import { ImageRefused, inspectImage, renderBlurred, renderImage } from '../../platform/uploads/images';
import { MEDIA_FILES } from './media';
import type { PostQuotaChecks } from './quotas';
import { SOURCE_FILE } from './transcodes';

/** Videos the upload page offers; the bytes decide (ffprobe), the name only picks the container. */
export const VIDEO_EXTENSIONS = new Set(['.mov', '.mp4']);

export function createPostFiles(deps: { files: FileStore; quotas: Pick<PostQuotaChecks, 'pixelsAllowed' | 'pixelsPerPost'> }) {
  const { files } = deps;

  /**
   * Renders each image upload into its folder (tile, full, blurred tile); refused files store nothing.
   * Every header is read first: the images' pixels together are refused before any is decoded.
   */
  async function storeImages(sources: Array<string | Buffer>): Promise<Array<{ key: string; width: number; height: number }>> {
    const stored: Array<{ key: string; width: number; height: number }> = [];
    try {
      let pixels = 0;
      for (const source of sources) {
        const facts = await inspectImage(source);
        pixels += facts.width * facts.height;
      }
      if (!deps.quotas.pixelsAllowed(pixels)) throw badRequest(fill(MSG.postTooManyPixels, { megapixels: deps.quotas.pixelsPerPost / 1_000_000 }), 'upload_ids');
      for (const source of sources) {
        const [tile, full] = [await renderImage(source, 'tile'), await renderImage(source, 'full')];
        const key = `posts/${randomUUID()}`;
        stored.push({ key, width: full.width, height: full.height });
        await files.put(`${key}/${MEDIA_FILES.tile}`, tile.data);
        await files.put(`${key}/${MEDIA_FILES.full}`, full.data);
        await files.put(`${key}/${MEDIA_FILES.locked}`, await renderBlurred(tile.data));
      }
      return stored;
    } catch (error) {
      await Promise.all(stored.map((s) => files.removeFolder(s.key)));
      if (error instanceof ImageRefused) throw badRequest(error.message as typeof MSG.notAnImage, 'upload_ids');
      throw error;
    }
  }

  /** Moves a video upload (a file on local disk) into its folder in storage, to wait for its transcode. */
  async function storeVideo(path: string, filename: string | undefined) {
    if (!VIDEO_EXTENSIONS.has(extname(filename ?? '').toLowerCase())) throw badRequest(MSG.notAVideo, 'upload_ids');
    const facts = await probeVideo(path).catch((error: unknown) => {
      if (error instanceof VideoRefused) throw badRequest(MSG.notAVideo, 'upload_ids');
      throw error;
    });
    const key = `posts/${randomUUID()}`;
    await files.putFile(`${key}/${SOURCE_FILE}`, path, { move: true });
    return { key, width: facts.width, height: facts.height, duration: facts.durationSeconds };
  }

  return { storeImages, storeVideo };
}
