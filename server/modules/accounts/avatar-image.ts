/** Avatar images: square 512 px WebP, no metadata. */
import { MSG } from '../../../common/messages';
import { squareWebp } from '../../platform/images/square-webp';

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

export const normaliseAvatar = (upload: Buffer): Promise<Buffer> => squareWebp(upload, { sizePx: 512, maxBytes: AVATAR_MAX_BYTES, tooBig: MSG.avatarTooBig });
