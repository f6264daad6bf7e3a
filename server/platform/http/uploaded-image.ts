/** The one file of a multipart form (field "file") that should be a picture (avatars, emotes), read whole. */
import type { FastifyRequest } from 'fastify';
import { MSG, type Message } from '../../../common/messages';
import { appError, badRequest } from './errors';

export async function uploadedImage(request: FastifyRequest, tooBig: Message): Promise<Buffer> {
  const notAnImage = () => badRequest(MSG.notAnImage, 'file');
  // A form the parser cannot read (cut short, no closing boundary) is a bad upload, not an error of ours:
  // the parser's errors carry no status, those of fastify-multipart carry theirs.
  const malformed = (error: { statusCode?: number }): never => {
    throw error.statusCode === undefined ? notAnImage() : error;
  };
  const file = request.isMultipart() ? await request.file().catch(malformed) : undefined;
  if (!file || file.fieldname !== 'file') throw notAnImage();
  return file.toBuffer().catch((error: { code?: string; statusCode?: number }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw appError('too_large', tooBig, { field: 'file' });
    return malformed(error);
  });
}
