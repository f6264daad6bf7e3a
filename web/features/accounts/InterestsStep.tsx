import { useState } from 'react';
import type { ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import type { Interest } from '../../../common/api/accounts';
import { DEFAULT_LOGIN_REDIRECT, MIN_INTERESTS } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { useSkinPath } from '../../app/skin';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { useAddInterests, useInterestList } from './api';
import styles from './InterestsStep.module.css';

interface InterestsStepProps {
  userId: number;
  /** Offers Skip (social sign-up completion); a choice still needs three interests. */
  optional?: boolean;
  destination?: string;
}

/** The interests as toggle chips (sign-up step two, and settings). */
export function InterestChips({ interests, chosen, onToggle }: { interests: Interest[]; chosen: ReadonlySet<number>; onToggle: (id: number) => void }) {
  return (
    <ul className={styles.chips} aria-label="Interests">
      {interests.map((interest) => (
        <li key={interest.interest_id}>
          <button type="button" className={styles.chip} aria-pressed={chosen.has(interest.interest_id)} onClick={() => onToggle(interest.interest_id)}>
            {interest.interest_name}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Toggles one id in a set of chosen ones. */
export const toggled = (set: ReadonlySet<number>, id: number): ReadonlySet<number> => {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
};

/** Step two of sign-up: at least three interests, then on to the login redirect. */
export function InterestsStep({ userId, optional = false, destination: target }: InterestsStepProps) {
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  const toast = useToast();
  const interests = useInterestList();
  const save = useAddInterests();
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const destination = target ?? skinPath(DEFAULT_LOGIN_REDIRECT);

  // No interests to choose from: nothing to ask, go straight on.
  if (interests.data?.length === 0 || interests.isError) return <Navigate to={destination} replace />;
  if (interests.isPending) return <Spinner size="lg" label="Loading interests" />;

  const toggle = (id: number) => setChosen((set) => toggled(set, id));

  const enough = chosen.size >= MIN_INTERESTS;
  const done = () =>
    save.mutate(
      { id: userId, interest_ids: [...chosen] },
      {
        onSuccess: () => {
          toast({ title: 'Welcome aboard! Your feed is ready.', tone: 'success' });
          void navigate(destination);
        },
        onError: (error) => toast({ title: MSG.interestsNotSaved, description: error.message, tone: 'error' }),
      },
    );

  return (
    <div className={styles.step}>
      <InterestChips interests={interests.data} chosen={chosen} onToggle={toggle} />
      <InterestsFooter chosen={chosen.size}>
        <div className={styles.buttons}>
          {optional && (
            <Button size="lg" variant="ghost" onClick={() => void navigate(destination)} disabled={save.isPending}>
              Skip
            </Button>
          )}
          <Button size="lg" disabled={!enough} loading={save.isPending} onClick={done}>
            Done
          </Button>
        </div>
      </InterestsFooter>
    </div>
  );
}

/** Under the interest chips: how many are chosen (or how many are needed), and the step's buttons. */
export function InterestsFooter({ chosen, children }: { chosen: number; children: ReactNode }) {
  return (
    <div className={styles.footer}>
      <p className={styles.hint} aria-live="polite">
        {chosen >= MIN_INTERESTS ? `${chosen} selected` : MSG.interestsMin}
      </p>
      {children}
    </div>
  );
}
