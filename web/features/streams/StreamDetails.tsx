import { useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { shortNumber } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { BanIcon, BookmarkIcon, ShareIcon, UsersIcon } from '../../ui/icons';
import { useToast } from '../../ui/Toast';
import { useSession } from '../accounts/api';
import { LoginPrompt } from '../accounts/LoginPrompt';
import { TipSelector } from '../tips/TipSelector';
import { useSaveStream } from './interactions-api';
import { LiveBadge } from './LiveBadge';
import { ReportStreamModal } from './ReportStreamModal';
import { canSave } from './stream-interactions';
import { DeleteStreamModal, ShareModal } from './StreamModals';
import { StreamInfoModal } from './StreamInfoModal';
import styles from './StreamViewPage.module.css';

/** Viewers shown = live viewers − 2, floored at 0 (spec part 1 §3 Stream info). */
export const shownViewers = (viewers: number) => Math.max(0, viewers - 2);

type Open = 'share' | 'edit' | 'delete' | 'report' | 'login' | null;

interface StreamDetailsProps {
  stream: StreamInfo;
  /** The viewer paused the live video: report waits (spec part 1 §4 Video state). */
  interactionsPaused?: boolean;
}

/** Under the player: badge, title, broadcaster, viewers, and tip / share / save / report / owner actions. */
export function StreamDetails({ stream, interactionsPaused = false }: StreamDetailsProps) {
  const [open, setOpen] = useState<Open>(null);
  const modal = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });
  const editable = stream.is_owner && !(stream.audience === 'PRIVATE' && stream.live === 'N');
  const session = useSession();
  const toast = useToast();
  const openReport = () => {
    if (!session.isLoggedIn) return setOpen('login');
    if (interactionsPaused) return toast({ title: MSG.streamPaused });
    setOpen('report');
  };
  return (
    <section className={styles.details} aria-label="Stream info">
      <div className={styles.titleRow}>
        <LiveBadge live={stream.live === 'Y'} />
        <h1 className={styles.title}>{stream.title}</h1>
      </div>
      <div className={styles.metaRow}>
        <SkinLink to={`/u/${stream.user_id}`} className={styles.broadcaster}>
          <Avatar name={stream.username} src={stream.avatar} size={40} />
          <span>{stream.username}</span>
        </SkinLink>
        <span className={styles.viewers} aria-label={`${shownViewers(stream.viewers)} viewers`}>
          <UsersIcon size={18} />
          {shortNumber(shownViewers(stream.viewers))}
        </span>
        <div className={styles.actions}>
          <TipSelector stream={stream} onGuest={() => setOpen('login')} paused={interactionsPaused} />
          {canSave(stream) && <SaveButton stream={stream} onGuest={() => setOpen('login')} />}
          <Button variant="secondary" size="sm" icon={<ShareIcon size={16} />} onClick={() => setOpen('share')}>
            Share
          </Button>
          {!stream.is_owner && (
            <Button variant="ghost" size="sm" icon={<BanIcon size={16} />} onClick={openReport} aria-haspopup="dialog">
              Report
            </Button>
          )}
          {editable && (
            <Button variant="secondary" size="sm" onClick={() => setOpen('edit')}>
              Edit
            </Button>
          )}
          {stream.is_owner && (
            <Button variant="danger" size="sm" onClick={() => setOpen('delete')}>
              Delete
            </Button>
          )}
        </div>
      </div>
      {stream.description && <p className={styles.description}>{stream.description}</p>}
      <ShareModal {...modal('share')} url={window.location.href.replace(/&preview=1/, '')} title={stream.title} />
      {editable && <StreamInfoModal {...modal('edit')} stream={stream} mode="edit" />}
      {stream.is_owner && <DeleteStreamModal {...modal('delete')} streamId={stream.stream_id} />}
      {!stream.is_owner && session.isLoggedIn && <ReportStreamModal {...modal('report')} stream={stream} />}
      <LoginPrompt {...modal('login')} />
    </section>
  );
}

/** The bookmark: on at once, back off with the server's reason when it refuses (spec part 1 §4 Bookmark). */
function SaveButton({ stream, onGuest }: { stream: StreamInfo; onGuest: () => void }) {
  const session = useSession();
  const save = useSaveStream(stream.stream_id);
  const toast = useToast();
  const toggle = () => {
    if (!session.user) return onGuest();
    if (save.isPending) return;
    save.mutate({ userId: session.user.user_id, save: !stream.saved }, { onError: (error) => toast({ title: failureMessage(error), tone: 'error' }) });
  };
  return (
    <Button variant={stream.saved ? 'primary' : 'secondary'} size="sm" icon={<BookmarkIcon size={16} />} aria-pressed={stream.saved} onClick={toggle}>
      {stream.saved ? 'Saved' : 'Save'}
    </Button>
  );
}
