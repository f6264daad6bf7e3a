/** The parts of goals fetched on demand, so whoever shows them keeps them out of its own code. */

/** A broadcast's goals after the show: only a replay's page shows them. */
export const loadGoalList = () => import('./GoalList');
