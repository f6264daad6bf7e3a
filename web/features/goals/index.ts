/** The public face of goals: A broadcast's tip goals: the active goal's bar and the hook that keeps it current, the replay's list (fetched on demand) and the broadcaster's editor. Other features import goals only from here. */
export { GoalBar } from './GoalBar';
export { GoalEditor } from './GoalEditor';
export { loadGoalList } from './loaders';
export { useActiveGoal } from './use-active-goal';
