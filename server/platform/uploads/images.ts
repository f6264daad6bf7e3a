/**
 * Uploaded images, read by their bytes (never by name or declared type) with sharp: what they are,
 * refused when they are not an image or would decode to a bitmap too large to hold (a decompression
 * bomb), and turned into the sizes pages show, as WebP without metadata (no EXIF location), turned
 * upright first.
 */
import sharp from 'sharp';
import { fill, MSG } from '../../../common/messages';

export const ACCEPTED_IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);
/** The largest bitmap decoded: 50 megapixels (a 20,000 × 20,000 PNG of a few hundred KB is 400). */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** The sizes made of each image: a tile for lists and the full view, each at most this wide and high. */
export const IMAGE_RENDITIONS = { tile: 480, full: 1920 } as const;
export type ImageRendition = keyof typeof IMAGE_RENDITIONS;

export class ImageRefused extends Error {}

export interface ImageFacts {
  format: string;
  width: number;
  height: number;
}

/** What the file is, or ImageRefused with the message a person reads. */
export async function inspectImage(input: string | Buffer): Promise<ImageFacts> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefused(MSG.notAnImage);
  }
  if (!meta.format || !ACCEPTED_IMAGE_FORMATS.has(meta.format) || !meta.width || !meta.height) throw new ImageRefused(MSG.notAnImage);
  // The header says how large the bitmap would be: refused before anything is decoded.
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw new ImageRefused(fill(MSG.imageTooManyPixels, { megapixels: MAX_IMAGE_PIXELS / 1_000_000 }));
  const upright = (meta.orientation ?? 1) >= 5;
  return { format: meta.format, width: upright ? meta.height : meta.width, height: upright ? meta.width : meta.height };
}

/** One rendition as WebP: upright, fitted inside the size, never enlarged, no metadata kept. */
export async function renderImage(input: string | Buffer, rendition: ImageRendition): Promise<{ data: Buffer; width: number; height: number }> {
  const size = IMAGE_RENDITIONS[rendition];
  try {
    const { data, info } = await sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
      .rotate()
      .resize(size, size, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: rendition === 'tile' ? 75 : 82 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    // A header that passed inspection over a body that does not decode.
    throw new ImageRefused(MSG.notAnImage);
  }
}

/** A heavily blurred copy of a rendition: the tile of a paid post for a viewer who has not bought it. */
export async function renderBlurred(input: Buffer): Promise<Buffer> {
  return sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS }).resize(160, 160, { fit: 'inside' }).blur(12).webp({ quality: 60 }).toBuffer();
}
