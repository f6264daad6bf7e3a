/**
 * The state of a form of repeated rows (goals, menu actions): the rows as typed, the messages shown under
 * them by row key (rows come and go, messages stay with their row), and one about the whole form.
 */
import { useState } from 'react';
import type { ListErrors, RowErrors } from '../api/row-errors';

export interface ShownRowErrors<F extends string> {
  rows: Partial<Record<number, RowErrors<F>>>;
  list: string | null;
}

export function useRowDrafts<D extends { key: number }, F extends string & keyof D>(initial: () => D[]) {
  const [drafts, setDrafts] = useState(initial);
  const [errors, setErrors] = useState<ShownRowErrors<F>>({ rows: {}, list: null });
  const [message, setMessage] = useState<string | null>(null);
  return {
    drafts,
    setDrafts,
    errors,
    message,
    setMessage,
    /** A field typed into: its message goes, and the form's. */
    edit(key: number, field: F, value: string) {
      setDrafts((rows) => rows.map((row) => (row.key === key ? { ...row, [field]: value } : row)));
      setErrors((shown) => ({ ...shown, rows: { ...shown.rows, [key]: { ...shown.rows[key], [field]: undefined } } }));
      setMessage(null);
    },
    remove(key: number) {
      setDrafts((rows) => rows.filter((row) => row.key !== key));
      setErrors((shown) => ({ ...shown, list: null }));
    },
    /** The messages of a check of `rows` (by index), shown under those rows. */
    showErrors(rows: readonly D[], found: ListErrors<F>) {
      setErrors({ rows: Object.fromEntries(rows.map((row, i) => [row.key, found.rows[i] ?? {}])), list: found.list ?? null });
    },
  };
}
