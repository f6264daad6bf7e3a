/** The interests chosen at sign-up, edited in settings (spec part 1 §2 Sign-up step two): at least three, saved with Save. */
import { useState } from 'react';
import { MIN_INTERESTS } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { useAddInterests, useInterestList, useUserInterests, InterestChips, InterestsFooter, toggled } from '../accounts';
import styles from './SettingsPage.module.css';

export function InterestSettings({ userId }: { userId: number }) {
  const all = useInterestList();
  const mine = useUserInterests(userId);
  const save = useAddInterests();
  const toast = useToast();
  const [chosen, setChosen] = useState<ReadonlySet<number> | null>(null);
  if (all.isError || mine.isError) return <p role="alert">Your interests could not be loaded. Please reload the page.</p>;
  if (!all.data || !mine.data) return <Spinner label="Loading interests" />;
  if (all.data.length === 0) return <p>No interests are offered yet.</p>;

  const saved = new Set(mine.data.map((i) => i.interest_id));
  const current = chosen ?? saved;
  const changed = current.size !== saved.size || [...current].some((id) => !saved.has(id));
  const enough = current.size >= MIN_INTERESTS;
  const submit = () =>
    save.mutate(
      { id: userId, interest_ids: [...current] },
      {
        onSuccess: () => {
          setChosen(null);
          toast({ title: MSG.settingsUpdated, tone: 'success' });
        },
        onError: (error) => toast({ title: MSG.interestsNotSaved, description: error.message, tone: 'error' }),
      },
    );

  return (
    <div className={styles.groups}>
      <InterestChips interests={all.data} chosen={current} onToggle={(id) => setChosen(toggled(current, id))} />
      <InterestsFooter chosen={current.size}>
        <Button disabled={!changed || !enough} loading={save.isPending} onClick={submit}>
          Save Interests
        </Button>
      </InterestsFooter>
    </div>
  );
}
