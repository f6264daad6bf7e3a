/**
 * Resumable uploads over the tus protocol (@tus/server with its file store under DATA_DIR): a client
 * sends a file in chunks and, after a dropped connection or a closed tab, asks the upload's offset and
 * goes on from there. The files stay on disk under DATA_DIR, or with STORAGE=s3 in the bucket (decision
 * 0065): each chunk goes into the upload's S3 multipart upload (@tus/s3-store), so whichever instance a
 * chunk reaches takes it; never in the database.
 *
 * Each upload belongs to the signed-in user who created it: the owner is written into the upload's
 * metadata by the server (a client's own `owner` key is replaced), and every later request on the upload
 * (HEAD, PATCH, DELETE) by anyone else is answered as if it did not exist. The size is declared at
 * creation and checked there, before any byte is stored: an unknown (deferred) length, an empty file,
 * one over the limit or one the person's quotas do not admit (`admit`) is refused with a message.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { FileStore } from '@tus/file-store';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import { Server } from '@tus/server';
import { ERRORS, type KvStore, type Upload } from '@tus/utils';
import type { OpenAPIV3 } from 'openapi-types';
import { MSG, type CatalogueText } from '../../../common/messages';
import { createS3FileStore, s3ClientConfig, type S3Settings } from '../storage/s3-store';
import { isDiskFull } from './disk-full';
import { unauthorized } from '../http/errors';
import type { RouteDocs } from '../http/openapi';

/** A refusal the tus server answers with this status and text. */
interface TusRefusal {
  status_code: number;
  body: string;
}

const refusal = (status_code: number, body: string): TusRefusal => ({ status_code, body });

export interface ResumableUploadsOptions {
  /** Where partial and finished uploads are kept (on the local store). */
  directory: string;
  /** STORAGE=s3: uploads are kept in the bucket instead, and tools get a copy in `workDir`. */
  s3?: { settings: S3Settings; workDir: string };
  /** The URL path the uploads live under, e.g. `/uploads`. */
  path: string;
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The refusal of a file over `maxBytes` (the spec's text names the size). */
  tooBigMessage: string;
  /** The refusal of an empty file. */
  emptyMessage: string;
  /** Unfinished uploads older than this are removed by `removeExpired` (default a day). */
  expireAfterMs?: number;
  /**
   * Whether the person may start this upload (their quotas), asked after the size checks and before
   * anything is stored: null admits it, a refusal is answered as it says.
   */
  admit?: (ownerId: number, upload: { id: string; size: number }) => Promise<UploadRefusal | null>;
  /** Told when an upload's file went (taken into a post, or given up), so what it held is counted no longer. */
  onRemoved?: (id: string) => Promise<void>;
}

export interface UploadRefusal {
  status: 400 | 403 | 413 | 429;
  message: string;
}

export interface FinishedUpload {
  id: string;
  ownerId: number;
  size: number;
  metadata: Record<string, string>;
  /** Runs `fn` with the upload's bytes in a file on local disk (a copy from the bucket, removed after). */
  withLocalFile<T>(fn: (path: string) => Promise<T>): Promise<T>;
}

/** Runs `fn` with each upload's bytes in a local file (see FinishedUpload.withLocalFile). */
export function withLocalFiles<T>(uploads: FinishedUpload[], fn: (paths: string[]) => Promise<T>, paths: string[] = []): Promise<T> {
  const [first, ...rest] = uploads;
  if (!first) return fn(paths);
  return first.withLocalFile((file) => withLocalFiles(rest, fn, [...paths, file]));
}

const OWNER_KEY = 'owner';

const ownerOf = (upload: Pick<Upload, 'metadata'>): number | null => {
  const owner = Number(upload.metadata?.[OWNER_KEY]);
  return Number.isSafeInteger(owner) && owner > 0 ? owner : null;
};

/**
 * The response as tus ends it, `res.end(callback)`: Fastify's inject (tests, the refusal matrix) takes a
 * function there for data and never finishes, so a lone callback is passed in the callback's place.
 */
function endsWithCallback(res: ServerResponse): ServerResponse {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => (typeof args[0] === 'function' ? end(undefined, undefined, args[0]) : end(...args))) as ServerResponse['end'];
  return res;
}

/** A full disk, answered plainly (not the system's words); the upload is gone, so a retry starts afresh. */
const DISK_FULL = refusal(507, MSG.diskFull);

/**
 * The file store, telling `onRemoved` of each upload removed (by the server, or by its owner's tus
 * termination), and removing an upload that meets a full disk: its bytes would keep the disk full.
 */
class UploadStore extends FileStore {
  constructor(private readonly options: ConstructorParameters<typeof FileStore>[0] & { directory: string }, private readonly onRemoved?: (id: string) => Promise<void>) {
    super(options);
  }

  override async remove(id: string): Promise<void> {
    await super.remove(id);
    await this.onRemoved?.(id);
  }

  override async create(file: Upload): Promise<Upload> {
    try {
      return await super.create(file);
    } catch (err) {
      throw await this.unlessDiskFull(file.id, err);
    }
  }

  /** FileStore's own write, keeping the cause of a failure (it reports every one alike). */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(readable, counter, createWriteStream(path.join(this.options.directory, id), { flags: 'r+', start: offset }));
    } catch (err) {
      throw isDiskFull(err) ? await this.unlessDiskFull(id, err) : ERRORS.FILE_WRITE_ERROR;
    }
    return offset + received;
  }

  private async unlessDiskFull(id: string, err: unknown): Promise<unknown> {
    if (!isDiskFull(err)) return err;
    await this.discard(id);
    return DISK_FULL;
  }

  /** An upload that met a full disk: its bytes and its record gone, whichever of them exists (FileStore's remove stops at the first missing). */
  async discard(id: string): Promise<void> {
    await Promise.all([rm(path.join(this.options.directory, id), { force: true }), rm(path.join(this.options.directory, `${id}.json`), { force: true })]);
    await this.onRemoved?.(id).catch(() => undefined);
  }
}

/**
 * Uploads in the bucket: `<id>` (the S3 multipart upload, then the finished object), `<id>.info` and, for a
 * chunk under S3's 5 MiB part minimum, `<id>.part`. Removing one removes all three, finished or not (the
 * S3 store's own remove stops at a finished upload's missing multipart upload), and tells `onRemoved`.
 */
/** No metadata kept between requests: another instance may have finished or removed the upload meanwhile. */
const noCache: KvStore<MetadataValue> = { get: async () => undefined, set: async () => {}, delete: async () => {}, list: async () => [] };

class S3UploadStore extends S3Store {
  constructor(options: ConstructorParameters<typeof S3Store>[0], private readonly onRemoved?: (id: string) => Promise<void>) {
    super(options);
  }

  override async remove(id: string): Promise<void> {
    await super.remove(id).catch((error: unknown) => {
      if (error !== ERRORS.FILE_NOT_FOUND) throw error;
    });
    await this.client.deleteObjects({ Bucket: this.bucket, Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true } });
    await this.clearCache(id);
    await this.onRemoved?.(id);
  }
}

export function createResumableUploads(options: ResumableUploadsOptions) {
  const expirationPeriodInMilliseconds = options.expireAfterMs ?? 24 * 3600_000;
  const s3 = options.s3;
  const datastore = s3
    ? new S3UploadStore({ s3ClientConfig: { ...s3ClientConfig(s3.settings), bucket: s3.settings.bucket }, cache: noCache, expirationPeriodInMilliseconds }, options.onRemoved)
    : new UploadStore({ directory: options.directory, expirationPeriodInMilliseconds }, options.onRemoved);
  const bucket = s3 && createS3FileStore(s3.settings, { workDir: s3.workDir });
  const withLocalFile = <T>(id: string, fn: (path: string) => Promise<T>): Promise<T> => {
    if (!bucket) return fn(path.join(options.directory, id));
    return bucket.withLocalCopy(id, fn).then((result) => {
      if (result === null) throw new Error(`upload ${id} is not in the bucket`);
      return result;
    });
  };
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
    // The write's own failure can reach tus before the store's answer to it (the request stream is torn down by the
    // same error): a full disk is answered plainly here too, and the upload removed, whichever came first.
    async onResponseError(req, err) {
      if (!isDiskFull(err)) return undefined;
      const id = new URL(req.url, 'http://upload').pathname.split('/').pop();
      if (id && /^[\w-]{1,64}$/.test(id) && id !== options.path.split('/').pop() && datastore instanceof UploadStore) await datastore.discard(id);
      return DISK_FULL;
    },
    async onUploadCreate(req, upload) {
      const owner = uploaderOf(req);
      if (owner === undefined) throw refusal(401, 'Please login before uploading');
      if (upload.sizeIsDeferred || upload.size === undefined) throw refusal(400, 'Say how large the file is (Upload-Length)');
      if (upload.size === 0) throw refusal(400, options.emptyMessage);
      if (upload.size > options.maxBytes) throw refusal(413, options.tooBigMessage);
      const refused = await options.admit?.(owner, { id: upload.id, size: upload.size });
      if (refused) throw refusal(refused.status, refused.message);
      return { metadata: { ...upload.metadata, [OWNER_KEY]: String(owner) } };
    },
  });

  return {
    /** Hands a request under `path` to the tus server, as the signed-in `uploaderId`. */
    async handle(req: IncomingMessage, res: ServerResponse, uploaderId: number): Promise<void> {
      uploaders.set(req, uploaderId);
      await tus.handle(req, endsWithCallback(res));
    },

    /** The owner's finished upload, or null (unknown, someone else's, or not all bytes yet). */
    async finished(id: string, ownerId: number): Promise<FinishedUpload | null> {
      if (!/^[\w-]{1,64}$/.test(id)) return null;
      const upload = await datastore.getUpload(id).catch(() => null);
      if (!upload || ownerOf(upload) !== ownerId || upload.size === undefined || upload.offset !== upload.size) return null;
      const metadata = Object.fromEntries(Object.entries(upload.metadata ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      return { id, ownerId, size: upload.size, metadata, withLocalFile: (fn) => withLocalFile(id, fn) };
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

/** The tus operations a site offers (creation, offset, chunks, termination), each a route of its own. */
export type TusOperation = 'create' | 'offset' | 'patch' | 'remove';

const TUS_PARAMETERS: OpenAPIV3.ParameterObject[] = [
  { name: 'Tus-Resumable', in: 'header', required: true, schema: { type: 'string', enum: ['1.0.0'] } },
];
const UPLOAD_ID: OpenAPIV3.ParameterObject = { name: 'uploadId', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' }, description: 'The upload id (the last part of the Location answered at creation)' };

/** The API document's words for each operation (tus 1.0.0, https://tus.io/protocols/resumable-upload). */
const TUS_DOCS: Record<Exclude<TusOperation, 'offset'>, RouteDocs> = {
  create: {
    parameters: [
      ...TUS_PARAMETERS,
      { name: 'Upload-Length', in: 'header', required: true, schema: { type: 'integer', minimum: 1 }, description: 'The whole file, in bytes (checked against the limit before anything is stored)' },
      { name: 'Upload-Metadata', in: 'header', required: false, schema: { type: 'string' }, description: 'filename and filetype, each "key base64(value)", comma-separated' },
    ],
    responses: { 201: { description: 'Created: Location names the upload; send it with PATCH, ask its offset with HEAD.' } },
    refusals: [413, 429, 507],
    description: "tus creation. The upload belongs to the caller; to anyone else it does not exist. Refused (413) past the file's limit or the caller's storage, and (429) past the uploads a person may start in a day.",
  },
  patch: {
    parameters: [...TUS_PARAMETERS, UPLOAD_ID, { name: 'Upload-Offset', in: 'header', required: true, schema: { type: 'integer', minimum: 0 } }],
    requestBody: { required: true, content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } } },
    responses: { 204: { description: 'Stored; Upload-Offset says how far the upload has come.' } },
    refusals: [404, 409, 507],
    description: 'One chunk at the offset the server holds (HEAD on the same address answers it, for resuming after a cut).',
  },
  remove: {
    parameters: [...TUS_PARAMETERS, UPLOAD_ID],
    responses: { 204: { description: 'The upload and its bytes are gone.' } },
    refusals: [404],
    description: 'tus termination: gives an unfinished upload up.',
  },
};

/**
 * Serves `uploads` under its path on a Fastify app: the tus body type passes through unparsed, and
 * each request goes to the tus server as the caller `uploaderOf` names (null: 401, nothing handled).
 * `config` gives the routes' own settings (the product's access declaration); each is documented.
 */
export function mountResumableUploads(app: FastifyInstance, uploads: ResumableUploads, options: {
  path: string;
  uploaderOf: (request: FastifyRequest) => Promise<number | null> | number | null;
  config?: RouteOptions['config'];
  /** The refusal of a caller not signed in (the error envelope's message). */
  unauthorizedMessage?: CatalogueText;
}): void {
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const handler: RouteOptions['handler'] = async (request, reply) => {
    const uploaderId = await options.uploaderOf(request);
    if (uploaderId === null) throw unauthorized(options.unauthorizedMessage);
    reply.hijack();
    await uploads.handle(request.raw, reply.raw, uploaderId);
  };
  const routes: Array<{ method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE'; url: string; operation: TusOperation; summary: string }> = [
    { method: 'POST', url: options.path, operation: 'create', summary: 'Starts a resumable upload (tus)' },
    { method: 'HEAD', url: `${options.path}/:uploadId`, operation: 'offset', summary: "An upload's offset (tus)" },
    { method: 'PATCH', url: `${options.path}/:uploadId`, operation: 'patch', summary: 'Sends one chunk of an upload (tus)' },
    { method: 'DELETE', url: `${options.path}/:uploadId`, operation: 'remove', summary: 'Gives an upload up (tus)' },
  ];
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.url,
      schema: { tags: ['uploads'], summary: route.summary },
      config: { ...options.config, ...(route.operation === 'offset' ? {} : { openapi: TUS_DOCS[route.operation] }) },
      handler,
    });
  }
}
