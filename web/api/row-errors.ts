/**
 * Messages for a form of repeated rows (goals, menu actions): each row's fields checked with the
 * contract's schema of one row, and a server refusal's `list.1.field` put back under the row it names.
 */
import type { z } from 'zod';
import { schemaErrors, type FieldErrors } from './field-errors';

export type RowErrors<F extends string> = Partial<Record<F, string>>;

export interface ListErrors<F extends string> {
  /** By row index. */
  rows: Array<RowErrors<F>>;
  /** About the list as a whole (too many rows). */
  list?: string;
}

/** The row schema's first message per field of each row, before sending. */
export function rowErrors<F extends string>(schema: z.ZodType, rows: readonly Record<F, unknown>[], fields: readonly F[]): ListErrors<F> {
  return {
    rows: rows.map((row) => {
      const errors = schemaErrors(schema, row);
      return Object.fromEntries(fields.flatMap((field) => (errors[field] ? [[field, errors[field]]] : []))) as RowErrors<F>;
    }),
  };
}

/** The server's field messages (`<list>.1.<field>`, `<list>`) under the rows they name. */
export function refusedRows<F extends string>(errors: FieldErrors, list: string, fields: readonly F[], rowCount: number): ListErrors<F> {
  const rows: Array<RowErrors<F>> = Array.from({ length: rowCount }, () => ({}));
  let whole: string | undefined;
  for (const [name, message] of Object.entries(errors)) {
    if (!message) continue;
    const [head, index, field] = name.split('.');
    if (head !== list) continue;
    const row = rows[Number(index)];
    if (row && (fields as readonly string[]).includes(field ?? '')) row[field as F] ??= message;
    else whole ??= message;
  }
  return whole === undefined ? { rows } : { rows, list: whole };
}

export const hasListErrors = <F extends string>(errors: ListErrors<F>): boolean =>
  errors.list !== undefined || errors.rows.some((row) => Object.values(row).some((message) => message !== undefined));
