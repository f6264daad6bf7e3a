/**
 * The room's walls and modals (spec part 2 §2 screens 10–11): login required, Meeting Unavailable,
 * Waiting For Host, the pay wall, Meeting Ended, and the rating wall after the call.
 */
import { useState } from 'react';
import { useLocation } from 'react-router';
import { fill, MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { CoinIcon, LockIcon, VideoCallIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Notice } from '../../ui/Notice';
import { StarRatingInput } from '../../ui/StarRatingInput';
import { ReportModal } from '../streams';
import { TipConfirmDialog, TipFailureDialog } from '../tips';
import { useBalance } from '../wallet';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { useRateMeeting, useReportMeeting } from './api';
import { useMeetingPay } from './use-meeting-pay';
import styles from './room.module.css';

/** The spec's star size on the rating wall (part 2 §9). */
const STAR_SIZE = 30;
export const CALENDAR_PATH = '/user/schedule-meetings';

export function LoginRequired() {
  const skinPath = useSkinPath();
  const location = useLocation();
  const login = `${skinPath('/user/login')}?redirect=${encodeURIComponent(location.pathname + location.search)}`;
  return <Notice title="Log in to join this video call" art={<LockIcon size={56} />} actions={<ButtonLink to={login}>Log In</ButtonLink>} />;
}

export function MeetingUnavailable() {
  const skinPath = useSkinPath();
  return (
    <Notice title={MSG.meetingUnavailableTitle} art={<VideoCallIcon size={56} />} actions={<ButtonLink to={skinPath(CALENDAR_PATH)}>All Video Calls</ButtonLink>}>
      {MSG.meetingUnavailable}
    </Notice>
  );
}

export function WaitingForHost({ onLeave }: { onLeave: () => void }) {
  return (
    <Modal open blocking size="sm" title={MSG.waitingForHostTitle} description={MSG.waitingForHost} footer={<Button variant="secondary" onClick={onLeave}>Leave</Button>} />
  );
}

export function MeetingPayWall({ meetingId, owed, hostName }: { meetingId: number; owed: number; hostName: string }) {
  const skinPath = useSkinPath();
  const balance = useBalance();
  const pay = useMeetingPay(meetingId);
  // Paying is confirmed first, as a tip is.
  const [confirming, setConfirming] = useState(false);
  const coins = balance.data?.CON;
  const short = coins !== undefined && coins < owed;
  return (
    <section className={styles.wall} aria-labelledby="meeting-pay-title">
      <span className={styles.wallIcon}>
        <LockIcon size={28} />
      </span>
      <h2 id="meeting-pay-title" className={styles.wallTitle}>
        This is a paid video call
      </h2>
      <p>
        Pay <strong>{formatCoins(owed)}</strong> to {hostName} to join. Video calls have no platform fee.
      </p>
      {coins !== undefined && <p className={styles.muted}>Your balance: {formatCoins(coins)}</p>}
      <div className={styles.wallActions}>
        {short && (
          <ButtonLink variant="secondary" to={skinPath('/user/account/deposit-coins')} target="_blank">
            Buy coins
          </ButtonLink>
        )}
        <Button size="lg" icon={<CoinIcon size={20} />} loading={pay.sending} onClick={() => setConfirming(true)}>
          Pay {formatCoins(owed)}
        </Button>
      </div>
      <TipConfirmDialog
        amount={confirming ? owed : null}
        sending={pay.sending}
        wording={{ title: 'Pay for the video call', description: `The coins go to ${hostName}, and you join the call.`, confirm: 'Confirm Payment' }}
        onClose={() => setConfirming(false)}
        onConfirm={(amount) => { setConfirming(false); pay.send(amount); }}
      />
      <TipFailureDialog failure={pay.failure} onRetry={pay.retry} retrying={pay.sending} onClose={pay.dismiss} />
    </section>
  );
}

interface EndedProps {
  meetingId: number;
  isHost: boolean;
  hostName: string;
  /** The host ended it (Ok), rather than the meeting being over when we came (Leave). */
  endedByHost: boolean;
  onDone: () => void;
}

/** 'Meeting Ended', then for participants the rating wall ('Stream ended', stars, Finished) with a way to report. */
export function MeetingEnded({ meetingId, isHost, hostName, endedByHost, onDone }: EndedProps) {
  const [acknowledged, setAcknowledged] = useState(false);
  const [stars, setStars] = useState<number | null>(null);
  const [reporting, setReporting] = useState(false);
  const rate = useRateMeeting(meetingId);
  const report = useReportMeeting(meetingId);
  const ok = () => (isHost ? onDone() : setAcknowledged(true));
  const finish = () => (stars === null ? onDone() : rate.mutate(stars, { onSuccess: onDone }));
  return (
    <>
      <Modal
        open={!acknowledged}
        blocking
        size="sm"
        title={MSG.meetingEndedTitle}
        description={endedByHost ? (isHost ? MSG.meetingEndedByYou : MSG.meetingEndedByHost) : MSG.meetingCallEnded}
        footer={<Button onClick={ok}>{endedByHost ? 'Ok' : 'Leave'}</Button>}
      />
      {acknowledged && (
        <section className={styles.wall} aria-labelledby="meeting-rate-title">
          <h2 id="meeting-rate-title" className={styles.wallTitle}>
            {MSG.streamEndedTitle}
          </h2>
          <p>Thanks for joining! How was {hostName}&rsquo;s call?</p>
          <StarRatingInput value={stars} onChange={setStars} label="Rate this call" size={STAR_SIZE} disabled={rate.isPending} />
          {rate.isError && <Alert>{fill(MSG.ratingFailed, { message: failureMessage(rate.error) })}</Alert>}
          <div className={styles.wallActions}>
            <Button variant="ghost" onClick={() => setReporting(true)}>
              Report
            </Button>
            <Button onClick={finish} loading={rate.isPending}>
              Finished
            </Button>
          </div>
          <ReportModal open={reporting} onOpenChange={setReporting} title="Report Stream" description={`Tell the moderators what went wrong in ${hostName}’s call.`} report={report} />
        </section>
      )}
    </>
  );
}
