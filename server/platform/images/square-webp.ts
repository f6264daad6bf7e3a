/**
 * Pictures people upload to be shown small (avatars, emotes): decoded by content (not by name or declared
 * type), cut to a square WebP of the given size, without metadata.
 */
import sharp from 'sharp';
import { MSG, type Message } from '../../../common/messages';
import { badRequest } from '../http/errors';

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);
/** Refuse decompression bombs: a small file that decodes to a huge bitmap. */
const MAX_INPUT_PIXELS = 40_000_000;

export async function squareWebp(upload: Buffer, limits: { sizePx: number; maxBytes: number; tooBig: Message }): Promise<Buffer> {
  if (upload.length > limits.maxBytes) throw badRequest(limits.tooBig, 'file');
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
      .resize(limits.sizePx, limits.sizePx, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest(MSG.notAnImage, 'file');
  }
}
