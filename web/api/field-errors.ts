/** Field → message maps, from the contract's zod schemas (client checks) or from a server refusal. */
import type { z } from 'zod';
import { ApiError } from './client';

export type FieldErrors = Partial<Record<string, string>>;

/** The first message per top-level field when `value` fails `schema`; empty when it passes. */
export function schemaErrors(schema: z.ZodType, value: unknown): FieldErrors {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
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
