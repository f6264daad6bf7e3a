/** The resumable upload's pure decisions: the upload id, whether to try a request again, what a refusal says. */
import { MSG } from '../../common/messages';

/** The id post/create and offer-create take: the last part of the address the upload server gave (`…/uploads/<id>`). */
export function uploadIdFromUrl(url: string | null): string | null {
  if (!url) return null;
  const path = url.split(/[?#]/)[0] ?? '';
  const last = path.split('/').filter(Boolean).pop();
  return last && /^[\w-]{1,64}$/.test(last) ? last : null;
}

/** The envelope's code and message when the body is one (`{ response, message }`), else nothing. */
function envelopeOf(body: string): { response?: unknown; message?: unknown } | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' ? (parsed as { response?: unknown; message?: unknown }) : null;
  } catch {
    return null;
  }
}

/** A refusal of the session's CSRF token (it changed, or expired): fetch a new one and send again. */
export const isCsrfRefusal = (status: number, body: string): boolean => status === 403 && envelopeOf(body)?.response === 'csrf';

/**
 * Whether a failed upload request is sent again (after the next retry delay): no answer at all (a
 * dropped connection, status 0), a server error, a conflict or lock (tus's own advice: 409, 423), and
 * once a CSRF refusal after the token was fetched again. Other refusals (too big, not yours, signed
 * out) would only be refused again.
 */
export function shouldRetryUpload(status: number, body: string, attempt: number): boolean {
  if (isCsrfRefusal(status, body)) return attempt === 0;
  if (status === 0 || status >= 500) return true;
  return status === 409 || status === 423;
}

/**
 * What to show for a refused upload: the server's own words (the 413's 'This Video is too big. Maximum
 * upload size is …', sent as text; or an envelope's message), else `fallback` (the form's own failure text).
 */
export function uploadFailureMessage(status: number, body: string, fallback: string): string {
  if (status === 0) return MSG.loginGenericError;
  if (status >= 400 && status < 500) {
    const envelope = envelopeOf(body);
    if (envelope) return typeof envelope.message === 'string' && envelope.message ? envelope.message : fallback;
    const text = body.trim();
    if (text && text.length <= 300 && !text.startsWith('<')) return text;
  }
  return fallback;
}
