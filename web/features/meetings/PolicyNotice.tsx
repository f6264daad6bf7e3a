/** The video-call policy notice (spec part 2 §2 screen 7), before the form and the calendar, unless dismissed for good. */
import { useState } from 'react';
import { MSG } from '../../../common/messages';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { Modal } from '../../ui/Modal';
import styles from './meetings.module.css';

export const POLICY_STORAGE_KEY = 'dontShowVideoCallPolicy';

function dismissedForGood(): boolean {
  try {
    return localStorage.getItem(POLICY_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

export function PolicyNotice() {
  const [open, setOpen] = useState(() => !dismissedForGood());
  const [dontShow, setDontShow] = useState(false);
  const close = () => {
    if (dontShow) {
      try {
        localStorage.setItem(POLICY_STORAGE_KEY, 'true');
      } catch {
        // Private mode: the notice shows again next time.
      }
    }
    setOpen(false);
  };
  return (
    <Modal open={open} onOpenChange={(next) => !next && close()} size="sm" title={MSG.videoCallPolicyTitle} footer={<Button onClick={close}>I understand</Button>}>
      <ul className={styles.policy}>
        <li>{MSG.videoCallPolicyFees}</li>
        <li>{MSG.videoCallPolicyBan}</li>
      </ul>
      <Checkbox checked={dontShow} onChange={(event) => setDontShow(event.target.checked)}>
        Don&rsquo;t show this again
      </Checkbox>
    </Modal>
  );
}
