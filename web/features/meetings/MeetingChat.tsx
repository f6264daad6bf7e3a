/**
 * The room's side panel (spec part 2 §2 screen 10): the meeting channel's chat, likes, tips to the
 * host, share, save, report and subscribe. The page owns the channel; this shows and sends.
 */
import { useState } from 'react';
import { QUICK_TIPS } from '../../../common/api/tips';
import { MSG } from '../../../common/messages';
import type { SendRequest } from '../../../common/realtime';
import { isRealtimeError } from '../../api/realtime';
import { Button } from '../../ui/Button';
import { copyText } from '../../ui/clipboard';
import { BookmarkIcon, CoinIcon, ShareIcon } from '../../ui/icons';
import { useToast } from '../../ui/Toast';
import { useSession } from '../accounts';
import type { ChatLine } from '../chat';
import { ChatInput, ChatLog, emojiSetFor } from '../chat';
import { useProfile } from '../social';
import { ReportModal } from '../streams';
import { SubscribeButton } from '../subscriptions';
import { TipConfirmDialog, TipFailureDialog } from '../tips';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { useBookmarkMeeting, useReportMeeting } from './api';
import { useMeetingPay } from './use-meeting-pay';
import styles from './room.module.css';

interface MeetingChatProps {
  meetingId: number;
  host: { id: number; name: string };
  isHost: boolean;
  lines: readonly ChatLine[];
  ready: boolean;
  send: (request: SendRequest) => Promise<void>;
}

export function MeetingChat({ meetingId, host, isHost, lines, ready, send }: MeetingChatProps) {
  const { user } = useSession();
  const toast = useToast();
  const [notice, setNotice] = useState<string | null>(null);
  const [reporting, setReporting] = useState(false);
  // The host's profile says whether we already subscribe; subscribing refreshes it.
  const hostProfile = useProfile(isHost ? null : host.id);
  const [saved, setSaved] = useState(false);
  const [tipAmount, setTipAmount] = useState<number | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const bookmark = useBookmarkMeeting(meetingId);
  const report = useReportMeeting(meetingId);
  const tip = useMeetingPay(meetingId, (_answer, amount) => {
    setTipAmount(null);
    toast({ title: `You tipped ${formatCoins(amount)}`, tone: 'success' });
  });

  const refused = (error: unknown) => setNotice(isRealtimeError(error) ? error.message || MSG.internal : MSG.internal);
  const sendComment = async (text: string) => {
    try {
      await send({ type: 'COMMENT', text });
      setNotice(null);
      return true;
    } catch (error) {
      refused(error);
      return false;
    }
  };
  const like = () => void send({ type: 'LIKE', likes: 1 }).catch(refused);
  // The first tip asks for a confirmation; once confirmed, later tips send directly (spec part 2 §4).
  const clickTip = (amount: number) => {
    if (confirmed) tip.send(amount);
    else setTipAmount(amount);
  };
  const share = async () => {
    const copied = await copyText(window.location.href);
    toast({ title: copied ? 'Link copied' : 'Could not copy the link', tone: copied ? 'success' : 'error' });
  };
  const toggleSave = () =>
    bookmark.mutate(!saved, {
      onSuccess: (now) => setSaved(now),
      onError: () => toast({ title: 'Could not save the call', tone: 'error' }),
    });

  return (
    <aside className={styles.side} aria-label="Call chat">
      <div className={styles.actionsRow}>
        <Button variant="ghost" size="sm" icon={<ShareIcon size={16} />} onClick={() => void share()}>
          Share
        </Button>
        <Button variant="ghost" size="sm" icon={<BookmarkIcon size={16} />} aria-pressed={saved} loading={bookmark.isPending} onClick={toggleSave}>
          {saved ? 'Saved' : 'Save'}
        </Button>
        {!isHost && (
          <>
            <Button variant="ghost" size="sm" onClick={() => setReporting(true)}>
              Report
            </Button>
            <SubscribeButton creatorId={host.id} creatorName={host.name} subscribed={hostProfile.data?.subscribed ?? false} size="sm" />
          </>
        )}
      </div>
      {!isHost && (
        <div className={styles.tips} role="group" aria-label={`Tip ${host.name}`}>
          <CoinIcon size={18} />
          {QUICK_TIPS.map((amount) => (
            <Button key={amount} variant="secondary" size="sm" disabled={tip.sending} onClick={() => clickTip(amount)}>
              {amount}
            </Button>
          ))}
        </div>
      )}
      <div className={styles.log}>
        <ChatLog lines={lines} label="Call chat" empty={ready ? 'No messages yet. Say hello!' : 'Joining the chat…'} translate={null} moderatedStreamId={null} myUserId={user?.user_id ?? null} />
      </div>
      <ChatInput disabledNote={null} ready={ready} isGuest={false} onGuest={() => undefined} onSend={sendComment} onLike={isHost ? null : like} emoji={emojiSetFor(user)} notice={notice} />
      <TipConfirmDialog
        amount={tipAmount}
        sending={tip.sending}
        onConfirm={(amount) => {
          setConfirmed(true);
          tip.send(amount);
        }}
        onClose={() => setTipAmount(null)}
      />
      <TipFailureDialog failure={tip.failure} onRetry={tip.retry} retrying={tip.sending} onClose={tip.dismiss} />
      <ReportModal open={reporting} onOpenChange={setReporting} title="Report Stream" description={`Tell the moderators what went wrong in ${host.name}’s call.`} report={report} />
    </aside>
  );
}
