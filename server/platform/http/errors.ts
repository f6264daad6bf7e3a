/** One error type for every refusal, raised by code (common/errors.ts); the error handler renders it into the envelope. */
import { ERRORS, errorMessage, type ErrorCode } from '../../../common/errors';
import type { CatalogueText } from '../../../common/messages';

type Details = { field?: string; errors?: Record<string, string>; [extra: string]: unknown };

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: CatalogueText = errorMessage(code),
    /** Rendered into the envelope next to response and message (a few spec answers carry more fields). */
    readonly details: Details = {},
  ) {
    super(message);
    this.status = ERRORS[code].status;
  }
}

/** A refusal by code; `message` replaces the code's default text with a more precise one of the catalogue. */
export const appError = (code: ErrorCode, message?: CatalogueText, details?: Details) => new AppError(code, message, details);

const withField = (message: CatalogueText, field?: string): Details => (field ? { field, errors: { [field]: message } } : {});

export const badRequest = (message: CatalogueText, field?: string) => new AppError('validation', message, withField(message, field));
export const unauthorized = (message?: CatalogueText) => appError('unauthorized', message);
export const forbidden = (message?: CatalogueText) => appError('forbidden', message);
export const notFound = (message?: CatalogueText) => appError('not_found', message);
export const conflict = (message: CatalogueText, field?: string) => new AppError('conflict', message, withField(message, field));
export const tooManyRequests = (message: CatalogueText) => appError('rate_limited', message);
