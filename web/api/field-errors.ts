/** Field → message maps, from the contract's zod schemas (client checks) or from a server refusal. */
import type { z } from 'zod';
import { MSG } from '../../common/messages';
import { ApiError } from './client';

export type FieldErrors = Partial<Record<string, string>>;

/**
 * The first message per field when `value` fails `schema`; empty when it passes. Fields are the
 * top-level keys, or the keys inside `under` (e.g. 'params' of { id, params: {...} }).
 */
export function schemaErrors(schema: z.ZodType, value: unknown, under?: string): FieldErrors {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    if (under !== undefined && issue.path[0] !== under) continue;
    const path = under === undefined ? issue.path : issue.path.slice(1);
    const field = String(path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The per-field messages of a 400 validation or 409 conflict answer. */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  if (error.errors) return { ...error.errors };
  return error.field ? { [error.field]: error.message } : {};
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/** What a form shows for a refused call: messages under its fields, or one above the form. */
export interface Refusal {
  fields: FieldErrors;
  message: string | null;
}

/**
 * The refusal of a form whose fields are `formFields`: the server's messages for those fields, or,
 * when none of them is named, the failure message above the form.
 */
export function formRefusal(error: unknown, formFields: ReadonlySet<string>): Refusal {
  const fields = Object.fromEntries(Object.entries(serverFieldErrors(error)).filter(([field]) => formFields.has(field)));
  return hasErrors(fields) ? { fields, message: null } : { fields: {}, message: failureMessage(error) };
}

/** The text to show for a failed call: the server's words for a 4xx answer, a generic apology otherwise. */
export function failureMessage(error: unknown): string {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : MSG.internal;
}
