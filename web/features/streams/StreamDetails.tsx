import { useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { shortNumber } from '../../../common/rules/format';
import { SkinLink } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { ShareIcon, UsersIcon } from '../../ui/icons';
import { LiveBadge } from './LiveBadge';
import { DeleteStreamModal, ShareModal } from './StreamModals';
import { StreamInfoModal } from './StreamInfoModal';
import styles from './StreamViewPage.module.css';

/** Viewers shown = live viewers − 2, floored at 0 (spec part 1 §3 Stream info). */
export const shownViewers = (viewers: number) => Math.max(0, viewers - 2);

type Open = 'share' | 'edit' | 'delete' | null;

/** Under the player: badge, title, broadcaster, viewers, and share / owner actions. */
export function StreamDetails({ stream }: { stream: StreamInfo }) {
  const [open, setOpen] = useState<Open>(null);
  const modal = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });
  const editable = stream.is_owner && !(stream.audience === 'PRIVATE' && stream.live === 'N');
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
          <Button variant="secondary" size="sm" icon={<ShareIcon size={16} />} onClick={() => setOpen('share')}>
            Share
          </Button>
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
    </section>
  );
}
