/**
 * The broadcaster's tip goals, before the show and during it: the goals reached so far, done, and a
 * row per goal still to come (coins and what it is for), up to GOAL.queueMax, saved together.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { GOAL } from '../../../common/api/goals';
import type { StreamGoal } from '../../../common/api/goals';
import { MSG } from '../../../common/messages';
import { failureMessage, serverFieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { CheckIcon, PlusIcon } from '../../ui/icons';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useRowDrafts } from '../../ui/use-row-drafts';
import { useSaveGoals, useStreamGoals } from './api';
import { draftErrors, draftsAfterChange, draftsOf, emptyDraft, goalsToSave, hasDraftErrors, mayAddDraft, refusedDrafts, sameDrafts } from './goal-drafts';
import type { GoalDraft, RowErrors } from './goal-drafts';
import { goalProgress } from './goal-progress';
import { GoalBar } from './GoalBar';
import styles from './goals.module.css';

interface GoalEditorProps {
  streamId: number;
  /** On air: GOAL frames move the goals as tips arrive. */
  live: boolean;
}

export function GoalEditor({ streamId, live }: GoalEditorProps) {
  const goals = useStreamGoals(streamId, live);
  return (
    <Section
      title="Tip goals"
      description={`Up to ${GOAL.queueMax} goals, in order. Tips on your stream fill the first; reaching it is announced in the chat and the next one starts with what went past.`}
    >
      {goals.isPending ? <Spinner /> : goals.isError ? <Alert>{failureMessage(goals.error)}</Alert> : <GoalForm streamId={streamId} goals={goals.data} />}
    </Section>
  );
}

function GoalForm({ streamId, goals }: { streamId: number; goals: StreamGoal[] }) {
  const save = useSaveGoals(streamId);
  const toast = useToast();
  const { drafts, setDrafts, errors, message, setMessage, edit, remove, showErrors } = useRowDrafts<GoalDraft, keyof RowErrors & string>(() => draftsOf(goals));
  const [seen, setSeen] = useState(goals);
  // Tips reach goals while the broadcaster edits: the rows follow the saved goals (goal-drafts.ts).
  if (seen !== goals) {
    setSeen(goals);
    setDrafts(draftsAfterChange(drafts, seen, goals));
  }

  const reached = goals.filter((goal) => goal.state === 'reached');
  const active = goals.find((goal) => goal.state === 'active') ?? null;
  const unchanged = sameDrafts(drafts, draftsOf(goals));

  const add = () => setDrafts((rows) => (mayAddDraft(rows) ? [...rows, emptyDraft()] : rows));

  function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const checked = draftErrors(drafts);
    showErrors(drafts, checked);
    if (hasDraftErrors(checked) || unchanged) return;
    const sent = drafts;
    save.mutate(goalsToSave(sent), {
      onSuccess: (saved) => {
        setDrafts(draftsOf(saved));
        toast({ title: MSG.goalsSaved, tone: 'success' });
      },
      onError: (error) => {
        const refusal = refusedDrafts(serverFieldErrors(error), sent.length);
        if (hasDraftErrors(refusal)) showErrors(sent, refusal);
        else setMessage(failureMessage(error));
      },
    });
  }

  return (
    <div>
      {reached.length > 0 && (
        <div>
          <h3 className={styles.subheading}>Reached</h3>
          <ol className={styles.rows} aria-label="Goals reached">
            {reached.map((goal) => (
              <li key={goal.goal_id} className={`${styles.row} ${styles.reached}`}>
                <span className={styles.mark} aria-hidden="true">
                  <CheckIcon size={14} />
                </span>
                <span className={styles.rowDescription}>{goal.description}</span>
                <span className={styles.rowFigures}>{goalProgress(goal).figures}</span>
                <span className={styles.rowState}>Reached</span>
              </li>
            ))}
          </ol>
        </div>
      )}
      <form className={styles.form} onSubmit={submit} noValidate aria-label="Goals to come">
        {drafts.length === 0 ? (
          <p className={styles.empty}>No goals to come. Add one: tips on your stream fill it, and reaching it is announced in the chat.</p>
        ) : (
          <ol className={styles.drafts}>
            {drafts.map((draft, i) => {
              const rowErrors = errors.rows[draft.key] ?? {};
              const filling = active !== null && draft.goalId === active.goal_id;
              return (
                <li key={draft.key}>
                  <fieldset className={styles.draft}>
                    <legend className={styles.draftLegend}>Goal {i + 1}</legend>
                    {filling && <span className={styles.chip}>Now filling</span>}
                    <div className={styles.draftFields}>
                      <TextField
                        label="Coins"
                        className={styles.amountInput}
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={GOAL.amountMax}
                        step={1}
                        value={draft.amount}
                        onChange={(e) => edit(draft.key, 'amount', e.target.value)}
                        error={rowErrors.amount}
                      />
                      <TextField
                        label="Description"
                        maxLength={GOAL.descriptionMax}
                        value={draft.description}
                        onChange={(e) => edit(draft.key, 'description', e.target.value)}
                        error={rowErrors.description}
                      />
                      <Button variant="ghost" size="sm" className={styles.removeButton} aria-label={`Remove goal ${i + 1}`} onClick={() => remove(draft.key)}>
                        Remove
                      </Button>
                    </div>
                    {filling && <GoalBar goal={active} place="editor" />}
                  </fieldset>
                </li>
              );
            })}
          </ol>
        )}
        <Alert>{errors.list ?? message}</Alert>
        <div className={styles.formActions}>
          <Button type="submit" loading={save.isPending} disabled={unchanged}>
            Save goals
          </Button>
          <Button variant="secondary" icon={<PlusIcon size={16} />} disabled={!mayAddDraft(drafts)} onClick={add}>
            Add a goal
          </Button>
          <span className={styles.count}>
            {drafts.length} of {GOAL.queueMax}
          </span>
        </div>
      </form>
    </div>
  );
}
