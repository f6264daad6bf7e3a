import { describe, expect, it } from 'vitest';
import { GOAL } from '../../../common/api/goals';
import type { StreamGoal } from '../../../common/api/goals';
import { MSG } from '../../../common/messages';
import { draftErrors, draftsAfterChange, draftsOf, emptyDraft, goalsToSave, hasDraftErrors, mayAddDraft, refusedDrafts, sameDrafts } from './goal-drafts';
import type { GoalDraft } from './goal-drafts';

const goal = (goal_id: number, state: StreamGoal['state'], amount = 30): StreamGoal => ({
  goal_id,
  position: goal_id,
  amount,
  raised: state === 'reached' ? amount : 0,
  description: `Goal ${goal_id}`,
  state,
  reached_time: state === 'reached' ? '2026-11-30T10:00:00.000Z' : null,
});
const contents = (drafts: readonly GoalDraft[]) => drafts.map(({ goalId, amount, description }) => ({ goalId, amount, description }));
const draft = (amount: string, description: string): GoalDraft => ({ ...emptyDraft(), amount, description });

describe('goal drafts', () => {
  it('are the goals not reached yet, in order', () => {
    expect(contents(draftsOf([goal(1, 'reached'), goal(2, 'active', 50), goal(3, 'queued')]))).toEqual([
      { goalId: 2, amount: '50', description: 'Goal 2' },
      { goalId: 3, amount: '30', description: 'Goal 3' },
    ]);
  });

  it(`stop at ${GOAL.queueMax} rows`, () => {
    expect(mayAddDraft(Array.from({ length: GOAL.queueMax - 1 }, emptyDraft))).toBe(true);
    expect(mayAddDraft(Array.from({ length: GOAL.queueMax }, emptyDraft))).toBe(false);
  });

  it('follow the saved goals while untouched', () => {
    const before = [goal(1, 'active'), goal(2, 'queued')];
    const after = [goal(1, 'reached'), goal(2, 'active')];
    expect(contents(draftsAfterChange(draftsOf(before), before, after))).toEqual([{ goalId: 2, amount: '30', description: 'Goal 2' }]);
  });

  it('keep what the broadcaster typed, less the rows of goals reached meanwhile', () => {
    const before = [goal(1, 'active'), goal(2, 'queued')];
    const typed = [...draftsOf(before), draft('80', 'Dance')];
    const after = [goal(1, 'reached'), goal(2, 'active')];
    const kept = draftsAfterChange(typed, before, after);
    expect(contents(kept)).toEqual([
      { goalId: 2, amount: '30', description: 'Goal 2' },
      { goalId: null, amount: '80', description: 'Dance' },
    ]);
    expect(kept.map((row) => row.key)).toEqual(typed.slice(1).map((row) => row.key));
  });

  it('tell unchanged rows from edited ones', () => {
    const goals = [goal(1, 'active')];
    expect(sameDrafts(draftsOf(goals), draftsOf(goals))).toBe(true);
    expect(sameDrafts([{ ...draftsOf(goals)[0]!, amount: '31' }], draftsOf(goals))).toBe(false);
    expect(sameDrafts([], draftsOf(goals))).toBe(false);
  });
});

describe('checking and sending drafts', () => {
  it('send whole coins and trimmed descriptions', () => {
    expect(goalsToSave([draft('30', '  New song ')])).toEqual([{ amount: 30, description: 'New song' }]);
  });

  it("say what each row lacks with the contract's texts", () => {
    const errors = draftErrors([draft('', ''), draft('30', 'Fine'), draft('2.5', '   '), draft('0', 'x'.repeat(GOAL.descriptionMax + 1))]);
    expect(errors.rows).toEqual([
      { amount: MSG.goalAmountNeeded, description: MSG.goalDescriptionNeeded },
      {},
      { amount: MSG.coinsWhole, description: MSG.goalDescriptionNeeded },
      { amount: MSG.coinsAtLeastOne, description: `Must be at most ${GOAL.descriptionMax} characters` },
    ]);
    expect(hasDraftErrors(errors)).toBe(true);
    expect(hasDraftErrors(draftErrors([draft('30', 'New song')]))).toBe(false);
  });

  it("put the server's messages under the rows they name, and the list's above them", () => {
    const refusal = refusedDrafts({ 'goals.1.amount': MSG.coinsAtLeastOne, 'goals.0.description': MSG.goalDescriptionNeeded, goals: 'At most 5 goals at once' }, 2);
    expect(refusal).toEqual({ rows: [{ description: MSG.goalDescriptionNeeded }, { amount: MSG.coinsAtLeastOne }], list: 'At most 5 goals at once' });
    expect(hasDraftErrors(refusedDrafts({ stream_id: 'Must be a stream id' }, 1))).toBe(false);
  });
});
