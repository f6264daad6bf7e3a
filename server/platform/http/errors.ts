/** One error type for every refusal; the error handler renders it into the envelope. */
import { MSG } from '../../../common/messages';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Rendered into the envelope next to response and message (a few spec answers carry more fields). */
    readonly details: { field?: string; errors?: Record<string, string>; [extra: string]: unknown } = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) =>
  new AppError(400, 'validation', message, field ? { field, errors: { [field]: message } } : {});
export const unauthorized = (message: string = MSG.notLoggedIn) => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string = MSG.forbidden) => new AppError(403, 'forbidden', message);
export const notFound = (message: string = MSG.notFound) => new AppError(404, 'not_found', message);
export const conflict = (message: string, field?: string) =>
  new AppError(409, 'conflict', message, field ? { field, errors: { [field]: message } } : {});
export const tooManyRequests = (message: string) => new AppError(429, 'rate_limited', message);
