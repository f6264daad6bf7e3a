/** Pictures people upload (avatars, emotes): the multipart form's one file read whole, its API document, and serving them stored. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MSG, type Message } from '../../../common/messages';
import type { FileStore } from '../storage/storage';
import { ACCESS } from './access';
import { appError, badRequest, notFound } from './errors';
import type { RouteDocs } from './openapi';

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

/** The API document's request body of such an upload. */
export function imageUploadDocs(maxBytes: number, refusals: RouteDocs['refusals']): RouteDocs {
  return {
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: { file: { type: 'string', format: 'binary', description: `An image, at most ${maxBytes / 1024 / 1024} MB` } },
          },
        },
      },
    },
    refusals,
  };
}

/** The name an upload gives a stored picture: its owner, 16 random hex digits, WebP. */
const STORED_PICTURE = /^\d+-[0-9a-f]{16}\.webp$/;

/** Serves `GET <path>/:name`: a stored WebP picture (an avatar, an emote), public and cached for a year (names change with the picture). */
export function servePictures(app: FastifyInstance, options: { path: string; prefix: string; what: string; tags: string[]; files: FileStore }): void {
  const docs: RouteDocs = {
    responses: { 200: { description: `The ${options.what}, WebP, cached for a year (names change with the image).`, content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } } } },
    refusals: [404],
  };
  app.get(`${options.path}/:name`, { schema: { tags: options.tags, summary: `An ${options.what} image, by the name its upload gave it` }, config: { access: ACCESS.public, openapi: docs } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    if (!STORED_PICTURE.test(name)) throw notFound();
    const stored = await options.files.open(`${options.prefix}${name}`);
    if (!stored) throw notFound();
    reply.header('content-type', 'image/webp').header('cache-control', 'public, max-age=31536000, immutable').header('content-length', stored.size);
    return reply.send(stored.body);
  });
}
