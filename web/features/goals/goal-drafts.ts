/**
 * The broadcaster's goal editor as data: one draft row per goal not reached yet, checked with the
 * contract's schema, and the server's refusals (`goals.1.amount`) put back under their rows.
 */
import { GOAL, goalInput } from '../../../common/api/goals';
import type { GoalInput, StreamGoal } from '../../../common/api/goals';
import type { FieldErrors } from '../../api/field-errors';
import { hasListErrors, refusedRows, rowErrors, type ListErrors, type RowErrors as RowMessages } from '../../api/row-errors';

export interface GoalDraft {
  /** Stable for React while rows come and go. */
  key: number;
  /** The saved goal this row shows, null for a row added since. */
  goalId: number | null;
  /** As typed: the field may hold something that is not a number yet. */
  amount: string;
  description: string;
}

const FIELDS = ['amount', 'description'] as const;
export type RowErrors = RowMessages<(typeof FIELDS)[number]>;
export type DraftErrors = ListErrors<(typeof FIELDS)[number]>;

let lastKey = 0;
const nextKey = () => ++lastKey;

/** The rows of the goals not reached yet, in order. */
export function draftsOf(goals: readonly StreamGoal[]): GoalDraft[] {
  return goals
    .filter((goal) => goal.state !== 'reached')
    .map((goal) => ({ key: nextKey(), goalId: goal.goal_id, amount: String(goal.amount), description: goal.description }));
}

export const emptyDraft = (): GoalDraft => ({ key: nextKey(), goalId: null, amount: '', description: '' });

export const mayAddDraft = (drafts: readonly GoalDraft[]): boolean => drafts.length < GOAL.queueMax;

/** The same rows with the same contents (keys aside). */
export function sameDrafts(a: readonly GoalDraft[], b: readonly GoalDraft[]): boolean {
  return a.length === b.length && a.every((draft, i) => {
    const other = b[i] as GoalDraft;
    return draft.goalId === other.goalId && draft.amount === other.amount && draft.description === other.description;
  });
}

/**
 * The rows after the saved goals changed under them (a goal reached, a save): untouched rows follow
 * the new goals; edited ones stay, less the rows of goals reached meanwhile, which saving would bring back.
 */
export function draftsAfterChange(drafts: readonly GoalDraft[], before: readonly StreamGoal[], after: readonly StreamGoal[]): GoalDraft[] {
  if (sameDrafts(drafts, draftsOf(before))) return draftsOf(after);
  const reached = new Set(after.filter((goal) => goal.state === 'reached').map((goal) => goal.goal_id));
  return drafts.filter((draft) => draft.goalId === null || !reached.has(draft.goalId));
}

/** What the rows say, as the server takes it; only once `draftErrors` finds nothing. */
export const goalsToSave = (drafts: readonly GoalDraft[]): GoalInput[] =>
  drafts.map((draft) => ({ amount: Number(draft.amount), description: draft.description.trim() }));

/** The contract's checks of each row, before sending. */
export const draftErrors = (drafts: readonly GoalDraft[]): DraftErrors =>
  rowErrors(goalInput, drafts.map(({ amount, description }) => ({ amount, description })), FIELDS);

/** The server's field messages (`goals.1.amount`, `goals`) under the rows they name. */
export const refusedDrafts = (fields: FieldErrors, rowCount: number): DraftErrors => refusedRows(fields, 'goals', FIELDS, rowCount);

export const hasDraftErrors: (errors: DraftErrors) => boolean = hasListErrors;
