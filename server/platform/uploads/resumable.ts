/**
 * Resumable uploads over the tus protocol (@tus/server with its file store under DATA_DIR): a client
 * sends a file in chunks and, after a dropped connection or a closed tab, asks the upload's offset and
 * goes on from there. The files stay on disk, never in the database.
 *
 * Each upload belongs to the signed-in user who created it: the owner is written into the upload's
 * metadata by the server (a client's own `owner` key is replaced), and every later request on the upload
 * (HEAD, PATCH, DELETE) by anyone else is answered as if it did not exist. The size is declared at
 * creation and checked there, before any byte is stored: an unknown (deferred) length, an empty file
 * or one over the limit is refused with a message.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import type { Upload } from '@tus/utils';

/** A refusal the tus server answers with this status and text. */
interface TusRefusal {
  status_code: number;
  body: string;
}

const refusal = (status_code: number, body: string): TusRefusal => ({ status_code, body });

export interface ResumableUploadsOptions {
  /** Where partial and finished uploads are kept. */
  directory: string;
  /** The URL path the uploads live under, e.g. `/api/uploads`. */
  path: string;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The refusal of a file over `maxBytes` (the spec's text names the size). */
  tooBigMessage: string;
  /** The refusal of an empty file. */
  emptyMessage: string;
  /** Unfinished uploads older than this are removed by `removeExpired` (default a day). */
  expireAfterMs?: number;
}

export interface FinishedUpload {
  id: string;
  ownerId: number;
  size: number;
  metadata: Record<string, string>;
  /** The file on disk. */
  path: string;
}

const OWNER_KEY = 'owner';

const ownerOf = (upload: Pick<Upload, 'metadata'>): number | null => {
  const owner = Number(upload.metadata?.[OWNER_KEY]);
  return Number.isSafeInteger(owner) && owner > 0 ? owner : null;
};

export function createResumableUploads(options: ResumableUploadsOptions) {
  const datastore = new FileStore({ directory: options.directory, expirationPeriodInMilliseconds: options.expireAfterMs ?? 24 * 3600_000 });
  /** Who sent each request in flight: set by `handle`, read by the hooks (which see tus's own request object). */
  const uploaders = new WeakMap<IncomingMessage, number>();
  const uploaderOf = (req: unknown): number | undefined => {
    const raw = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    return raw ? uploaders.get(raw) : undefined;
  };

  // The default in-memory locker: one request per upload at a time on this instance (clients send one chunk at a time).
  const tus = new Server({
    path: options.path,
    datastore,
    relativeLocation: true,
    respectForwardedHeaders: false,
    // Pages of this site only: no cross-origin reads of upload answers.
    allowedOrigins: () => false,
    // Ids nobody can guess: an upload's address is not its permission (the owner check is), but it is not a counter either.
    namingFunction: () => randomBytes(18).toString('base64url'),
    async onIncomingRequest(req, uploadId) {
      if (req.method === 'POST') return;
      const upload = await datastore.getUpload(uploadId).catch(() => null);
      if (!upload || ownerOf(upload) !== uploaderOf(req)) throw refusal(404, 'The upload was not found');
    },
    async onUploadCreate(req, upload) {
      const owner = uploaderOf(req);
      if (owner === undefined) throw refusal(401, 'Please login before uploading');
      if (upload.sizeIsDeferred || upload.size === undefined) throw refusal(400, 'Say how large the file is (Upload-Length)');
      if (upload.size === 0) throw refusal(400, options.emptyMessage);
      if (upload.size > options.maxBytes) throw refusal(413, options.tooBigMessage);
      return { metadata: { ...upload.metadata, [OWNER_KEY]: String(owner) } };
    },
  });

  return {
    /** Hands a request under `path` to the tus server, as the signed-in `uploaderId`. */
    async handle(req: IncomingMessage, res: ServerResponse, uploaderId: number): Promise<void> {
      uploaders.set(req, uploaderId);
      await tus.handle(req, res);
    },

    /** The owner's finished upload, or null (unknown, someone else's, or not all bytes yet). */
    async finished(id: string, ownerId: number): Promise<FinishedUpload | null> {
      if (!/^[\w-]{1,64}$/.test(id)) return null;
      const upload = await datastore.getUpload(id).catch(() => null);
      if (!upload || ownerOf(upload) !== ownerId || upload.size === undefined || upload.offset !== upload.size) return null;
      const metadata = Object.fromEntries(Object.entries(upload.metadata ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      return { id, ownerId, size: upload.size, metadata, path: `${options.directory}/${id}` };
    },

    /** Removes an upload's file and record (after it was taken into a post, or given up). */
    async remove(id: string): Promise<void> {
      await datastore.remove(id).catch(() => undefined);
    },

    /** Removes unfinished uploads past their expiry; answers how many. */
    removeExpired: (): Promise<number> => tus.cleanUpExpiredUploads(),
  };
}

export type ResumableUploads = ReturnType<typeof createResumableUploads>;

/**
 * Serves `uploads` under its path on a Fastify app: the tus body type passes through unparsed, and
 * each request goes to the tus server as the caller `uploaderOf` names (null: 401, nothing handled).
 * `config` is the routes' own (the product's access declaration).
 */
export function mountResumableUploads(app: FastifyInstance, uploads: ResumableUploads, options: {
  path: string;
  uploaderOf: (request: FastifyRequest) => Promise<number | null> | number | null;
  config?: RouteOptions['config'];
  unauthorizedMessage?: string;
}): void {
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  for (const url of [options.path, `${options.path}/*`]) {
    app.route({
      method: ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'],
      url,
      config: options.config,
      handler: async (request, reply) => {
        const uploaderId = await options.uploaderOf(request);
        if (uploaderId === null) return reply.code(401).send({ message: options.unauthorizedMessage ?? 'Please login before uploading' });
        reply.hijack();
        await uploads.handle(request.raw, reply.raw, uploaderId);
      },
    });
  }
}
