/**
 * The broadcaster's tip menu editor as data: one draft row per action (what the viewer gets, its price),
 * checked with the contract's schema, and the server's refusals (`items.1.label`) put back under their rows.
 */
import { menuItemInput, TIP_MENU } from '../../../common/api/tips';
import type { MenuItemInput, TipMenuItem } from '../../../common/api/tips';
import { schemaErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';

export interface MenuDraft {
  /** Stable for React while rows come and go. */
  key: number;
  label: string;
  /** As typed: the field may hold something that is not a number yet. */
  price: string;
}

export interface RowErrors {
  label?: string;
  price?: string;
}

export interface DraftErrors {
  /** By row index. */
  rows: RowErrors[];
  /** About the menu as a whole (too many actions). */
  list?: string;
}

const FIELDS = ['label', 'price'] as const;

let lastKey = 0;
const nextKey = () => ++lastKey;

export const draftsOf = (items: readonly TipMenuItem[]): MenuDraft[] =>
  items.map((item) => ({ key: nextKey(), label: item.label, price: String(item.price) }));

export const emptyDraft = (): MenuDraft => ({ key: nextKey(), label: '', price: '' });

export const mayAddDraft = (drafts: readonly MenuDraft[]): boolean => drafts.length < TIP_MENU.itemsMax;

/** The same rows with the same contents (keys aside). */
export function sameDrafts(a: readonly MenuDraft[], b: readonly MenuDraft[]): boolean {
  return a.length === b.length && a.every((draft, i) => draft.label === b[i]?.label && draft.price === b[i]?.price);
}

/** What the rows say, as the server takes it; only once `draftErrors` finds nothing. */
export const itemsToSave = (drafts: readonly MenuDraft[]): MenuItemInput[] =>
  drafts.map((draft) => ({ label: draft.label.trim(), price: Number(draft.price) }));

/** The contract's checks of each row, before sending. */
export function draftErrors(drafts: readonly MenuDraft[]): DraftErrors {
  return {
    rows: drafts.map((draft) => {
      const errors = schemaErrors(menuItemInput, { label: draft.label, price: draft.price.trim() });
      return Object.fromEntries(FIELDS.flatMap((field) => (errors[field] ? [[field, errors[field]]] : [])));
    }),
  };
}

/** The server's field messages (`items.1.label`, `items`) under the rows they name. */
export function refusedDrafts(fields: FieldErrors, rowCount: number): DraftErrors {
  const rows: RowErrors[] = Array.from({ length: rowCount }, () => ({}));
  let list: string | undefined;
  for (const [name, message] of Object.entries(fields)) {
    if (!message) continue;
    const [head, index, field] = name.split('.');
    if (head !== 'items') continue;
    const row = rows[Number(index)];
    if (row && (field === 'label' || field === 'price')) row[field] ??= message;
    else list ??= message;
  }
  return list === undefined ? { rows } : { rows, list };
}

export const hasDraftErrors = (errors: DraftErrors): boolean =>
  errors.list !== undefined || errors.rows.some((row) => row.label !== undefined || row.price !== undefined);
