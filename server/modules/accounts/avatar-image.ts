/** Avatar images: decoded by content (not by name or declared type), square 512 px WebP, no metadata. */
import sharp from 'sharp';
import { MSG } from '../../../common/messages';
import { badRequest } from '../../platform/http/errors';

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
const AVATAR_SIZE = 512;
/** Refuse decompression bombs: a small file that decodes to a huge bitmap. */
const MAX_INPUT_PIXELS = 40_000_000;

export async function normaliseAvatar(upload: Buffer): Promise<Buffer> {
  if (upload.length > AVATAR_MAX_BYTES) throw badRequest(MSG.avatarTooBig, 'file');
  let format: string | undefined;
  try {
    format = (await sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw badRequest(MSG.notAnImage, 'file');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw badRequest(MSG.notAnImage, 'file');
  try {
    // rotate() applies the EXIF orientation before the metadata is dropped (sharp keeps none by default).
    return await sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest(MSG.notAnImage, 'file');
  }
}
