/**
 * The video-call policy notice (spec part 2 §2 screen 7): shown in place of the form and the calendar
 * until read, unless dismissed for good. It is part of the page, not a modal, so it never stacks with
 * the shell's system messages (decision 0005).
 */
import { useState, type ReactNode } from 'react';
import { MSG } from '../../../common/messages';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import styles from './meetings.module.css';

export const POLICY_STORAGE_KEY = 'dontShowVideoCallPolicy';

function dismissedForGood(): boolean {
  try {
    return localStorage.getItem(POLICY_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

export function PolicyGate({ children }: { children: ReactNode }) {
  const [read, setRead] = useState(dismissedForGood);
  const [dontShow, setDontShow] = useState(false);
  if (read) return children;
  const proceed = () => {
    if (dontShow) {
      try {
        localStorage.setItem(POLICY_STORAGE_KEY, 'true');
      } catch {
        // Private mode: the notice shows again next time.
      }
    }
    setRead(true);
  };
  return (
    <section className={styles.card} aria-labelledby="video-call-policy">
      <h2 id="video-call-policy" className={styles.cardTitle}>
        {MSG.videoCallPolicyTitle}
      </h2>
      <ul className={styles.policy}>
        <li>{MSG.videoCallPolicyFees}</li>
        <li>{MSG.videoCallPolicyBan}</li>
      </ul>
      <Checkbox checked={dontShow} onChange={(event) => setDontShow(event.target.checked)}>
        Don&rsquo;t show this again
      </Checkbox>
      <div className={styles.actions}>
        <Button onClick={proceed}>I understand</Button>
      </div>
    </section>
  );
}
