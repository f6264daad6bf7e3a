/**
 * Tip goals of a broadcast (our addition; the spec's stream info has a `goal`): the broadcaster queues
 * goals before or during the show, tips on the stream fill the active one, and reaching it starts the next.
 */
import { z } from 'zod';
import { fill, MSG } from '../messages';
import { defineCall, success } from './define';
import { numeric, requiredText } from './fields';
import { GOAL, streamGoal, streamId } from './streams';

export { GOAL, streamGoal, type StreamGoal } from './streams';

/** One goal as the broadcaster writes it: whole coins, and what it is for (trimmed, not blank). */
export const goalInput = z.strictObject({
  amount: numeric(z.number({ error: MSG.goalAmountNeeded }).int(MSG.coinsWhole).min(1, MSG.coinsAtLeastOne)
    .max(GOAL.amountMax, `Must be at most ${GOAL.amountMax} coins`)),
  description: requiredText(MSG.goalDescriptionNeeded, GOAL.descriptionMax),
});
export type GoalInput = z.infer<typeof goalInput>;

export const streamGoals = defineCall({
  method: 'GET',
  path: '/api/streams/goals',
  refusals: [404],
  summary: "A broadcast's tip goals in order: those reached, the active one, those queued",
  input: z.strictObject({ id: streamId }),
  output: success({ goals: z.array(streamGoal) }),
});

export const saveGoals = defineCall({
  method: 'POST',
  path: '/api/streams/save-goals',
  refusals: [404, 409],
  summary: 'The owner replaces the goals not reached yet (none: no goal); the first becomes active and keeps what the active one had raised',
  input: z.strictObject({
    stream_id: streamId,
    goals: z.array(goalInput).max(GOAL.queueMax, fill(MSG.goalsTooMany, { max: GOAL.queueMax })),
  }).meta({ examples: [{ stream_id: 42, goals: [{ amount: 500, description: 'New song' }, { amount: 1000, description: 'Q&A' }] }] }),
  output: success({ goals: z.array(streamGoal) }),
});
