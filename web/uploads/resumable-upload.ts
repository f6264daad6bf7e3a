/**
 * One file sent over tus (docs/architecture.md §8 Uploads, decision 0017): chunks of UPLOAD_CHUNK_BYTES
 * one at a time, the session's CSRF token and the skin on every request, and the upload's address kept
 * in the browser under the file's fingerprint, so choosing the same file again after a closed tab or a
 * cut asks the server its offset and sends only the rest.
 */
import { defaultOptions, Upload } from 'tus-js-client';
import type { DetailedError, UploadOptions } from 'tus-js-client';
import { UPLOADS_PATH } from '../../common/api/posts';
import { UPLOAD_CHUNK_BYTES } from '../../common/constants';
import { MSG } from '../../common/messages';
import { currentSkin, getCsrfToken, resetCsrfToken } from '../api/client';
import { fileType } from './files';
import { isCsrfRefusal, shouldRetryUpload, uploadFailureMessage, uploadIdFromUrl } from './upload-rules';

/** Waits before each new try of a failed request (a dropped connection gets about a minute to come back). */
export const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000];

/** A refusal that trying again would not change; `status` is the HTTP status (0: no answer). */
export class UploadFailure extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'UploadFailure';
    this.status = status;
  }
}

export interface UploadEvents {
  progress: (sent: number, total: number) => void;
  /** The connection stayed away through every retry: the upload waits for `resume()`. */
  stalled: () => void;
}

export interface ResumableUpload {
  /** The upload id (for post/create, offer-create) once every byte arrived; rejects with an UploadFailure. */
  done: Promise<string>;
  /** Stops sending after the chunk in flight; the server keeps what arrived. */
  pause: () => void;
  /** Asks the server its offset and sends the rest. */
  resume: () => void;
}

/** Absolute, so the upload addresses the server answers resolve against it. */
const endpoint = () => new URL(UPLOADS_PATH, window.location.origin).href;

const responseOf = (error: Error | DetailedError) => {
  const response = 'originalResponse' in error ? error.originalResponse : null;
  return { status: response?.getStatus() ?? 0, body: response?.getBody() ?? '' };
};

function options(file: File): UploadOptions {
  return {
    endpoint: endpoint(),
    chunkSize: UPLOAD_CHUNK_BYTES,
    parallelUploads: 1,
    retryDelays: RETRY_DELAYS,
    metadata: { filename: file.name, filetype: fileType(file) },
    headers: { 'X-Service': currentSkin() },
    storeFingerprintForResuming: true,
    // Kept until the upload is used (forgetUploads): a tab closed in between finds the finished upload again.
    removeFingerprintOnSuccess: false,
    // The token as of this request: it is fetched again after a refusal.
    onBeforeRequest: async (request) => request.setHeader('X-CSRF-Token', await getCsrfToken()),
    onShouldRetry: (error, attempt) => {
      const { status, body } = responseOf(error);
      if (isCsrfRefusal(status, body)) resetCsrfToken();
      return shouldRetryUpload(status, body, attempt);
    },
  };
}

/** `failureText` is what a refusal says when the server gave no words of its own (the form's failure). */
export function startResumableUpload(file: File, events: UploadEvents, failureText: string): ResumableUpload {
  let settle: { resolve: (id: string) => void; reject: (error: UploadFailure) => void } | undefined;
  const done = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const upload: Upload = new Upload(file, {
    ...options(file),
    onProgress: (sent, total) => events.progress(sent, total),
    onSuccess: () => {
      const id = uploadIdFromUrl(upload.url);
      if (id) settle?.resolve(id);
      else settle?.reject(new UploadFailure(MSG.uploadUnknown, 0));
    },
    onError: (error) => {
      const { status, body } = responseOf(error);
      // No answer after every retry: the connection is gone for now, not the upload.
      if (status === 0 && 'originalRequest' in error && error.originalRequest) return events.stalled();
      settle?.reject(new UploadFailure(uploadFailureMessage(status, body, failureText), status));
    },
  });
  let started = false;
  let paused = false;
  const begin = () => {
    started = true;
    if (!paused) upload.start();
  };
  // A file sent before (this tab or a closed one) goes on from the newest upload the browser remembers.
  upload.findPreviousUploads().then(
    (previous) => {
      const newest = [...previous].sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
      if (newest) upload.resumeFromPreviousUpload(newest);
      begin();
    },
    begin,
  );
  return {
    done,
    pause: () => {
      paused = true;
      void upload.abort();
    },
    resume: () => {
      paused = false;
      if (started) upload.start();
    },
  };
}

/** Forgets the remembered upload addresses of these files once what they were for exists (the server took the uploads). */
export async function forgetUploads(files: readonly File[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      const previous = await new Upload(file, options(file)).findPreviousUploads().catch(() => []);
      await Promise.all(previous.map((p) => defaultOptions.urlStorage.removeUpload(p.urlStorageKey).catch(() => undefined)));
    }),
  );
}
