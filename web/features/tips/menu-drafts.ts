/**
 * The broadcaster's tip menu editor as data: one draft row per action (what the viewer gets, its price),
 * checked with the contract's schema, and the server's refusals (`items.1.label`) put back under their rows.
 */
import { menuItemInput, TIP_MENU } from '../../../common/api/tips';
import type { MenuItemInput, TipMenuItem } from '../../../common/api/tips';
import type { FieldErrors } from '../../api/field-errors';
import { hasListErrors, refusedRows, rowErrors, type ListErrors, type RowErrors as RowMessages } from '../../api/row-errors';

export interface MenuDraft {
  /** Stable for React while rows come and go. */
  key: number;
  label: string;
  /** As typed: the field may hold something that is not a number yet. */
  price: string;
}

const FIELDS = ['label', 'price'] as const;
export type RowErrors = RowMessages<(typeof FIELDS)[number]>;
export type DraftErrors = ListErrors<(typeof FIELDS)[number]>;

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

/** The contract's checks of each row, before sending (the price as typed, trimmed). */
export const draftErrors = (drafts: readonly MenuDraft[]): DraftErrors =>
  rowErrors(menuItemInput, drafts.map((draft) => ({ label: draft.label, price: draft.price.trim() })), FIELDS);

/** The server's field messages (`items.1.label`, `items`) under the rows they name. */
export const refusedDrafts = (fields: FieldErrors, rowCount: number): DraftErrors => refusedRows(fields, 'items', FIELDS, rowCount);

export const hasDraftErrors: (errors: DraftErrors) => boolean = hasListErrors;
