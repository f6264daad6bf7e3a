import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReactNode } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { shortNumber } from '../../../common/rules/format';
import { shownTitle } from '../../../common/rules/stream-display';
import { failureMessage } from '../../api/field-errors';
import { LoadOnUse, lazyOnDemand, lazyPage } from '../../app/lazy-page';
import { SkinLink } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { BanIcon, BookmarkIcon, HeartIcon, MoreIcon, ShareIcon, UsersIcon } from '../../ui/icons';
import { useInteractionDisabled } from '../../ui/InteractionDisabled';
import { useToast } from '../../ui/Toast';
import { useMemberAction, useSession, LoginPrompt } from '../accounts';
import { FollowButton } from '../social';
import { TipSelector } from '../tips';
import { streamKeys } from '../../api/content-keys';
import { useSaveStream } from './interactions-api';
import { LiveBadge } from './LiveBadge';
import { canSave } from './stream-interactions';
import styles from './StreamViewPage.module.css';

// What only some viewers open loads when it opens: the dialogs, the owner's menu (decision 0032).
const ShareModal = lazyOnDemand(() => import('./StreamModals'), 'ShareModal');
const DeleteStreamModal = lazyOnDemand(() => import('./StreamModals'), 'DeleteStreamModal');
const StreamInfoModal = lazyOnDemand(() => import('./StreamInfoModal'), 'StreamInfoModal');
const ReportStreamModal = lazyOnDemand(() => import('./ReportStreamModal'), 'ReportStreamModal');
const OwnerMenuList = lazyPage(() => import('./OwnerMenu'), 'OwnerMenu');

type Open = 'share' | 'edit' | 'delete' | 'report' | 'login' | null;

interface StreamHeaderProps {
  stream: StreamInfo;
  /** As shown: live viewers − 2 and likes + realtime likes, kept current by the stream's channel. */
  counts: { viewers: number; likes: number };
  /** Beside Follow: the Subscribe button (the stream page passes it). */
  subscribeSlot?: ReactNode;
}

/** Above the chat on phones, under the player on wide screens: badge, title, broadcaster with Follow, viewers and likes. */
export function StreamHeader({ stream, counts, subscribeSlot }: StreamHeaderProps) {
  const queryClient = useQueryClient();
  const [loginOpen, setLoginOpen] = useState(false);
  const live = stream.live === 'Y';
  const setFollowing = (following: boolean) =>
    queryClient.setQueryData<StreamInfo>(streamKeys.lookup(stream.stream_id), (old) => old && { ...old, is_following: following, following_notify: following });
  return (
    <section className={styles.header} aria-label="Stream">
      <div className={styles.titleRow}>
        <LiveBadge live={live} />
        <h1 className={styles.title}>{shownTitle(stream.title)}</h1>
      </div>
      <div className={styles.metaRow}>
        <div className={styles.channel}>
          <SkinLink to={`/u/${stream.user_id}`} className={styles.broadcaster}>
            <Avatar name={stream.username} src={stream.avatar} size={36} />
            <span className={styles.broadcasterName}>{stream.username}</span>
          </SkinLink>
          {/* As on the profile (spec part 1 §2): a subscriber sees Subscribed instead of Follow. */}
          {!stream.is_owner && !stream.subscribed && (
            <FollowButton userId={stream.user_id} following={stream.is_following} size="sm" onGuest={() => setLoginOpen(true)} onFollowChange={setFollowing} />
          )}
          {subscribeSlot}
        </div>
        <div className={styles.counts}>
          {live && (
            <span className={styles.count} aria-label={`${counts.viewers} viewers`} title="Viewers">
              <UsersIcon size={16} />
              {shortNumber(counts.viewers)}
            </span>
          )}
          <span className={styles.count} aria-label={`${counts.likes} likes`} title="Likes">
            <HeartIcon size={16} />
            {shortNumber(counts.likes)}
          </span>
        </div>
      </div>
      <LoginPrompt open={loginOpen} onOpenChange={setLoginOpen} />
    </section>
  );
}

interface StreamDetailsProps {
  stream: StreamInfo;
  /** The viewer paused the live video: report waits (spec part 1 §4 Video state). */
  interactionsPaused?: boolean;
}

/** Tip / save / share / report, the owner's edit and delete, and the description. */
export function StreamDetails({ stream, interactionsPaused = false }: StreamDetailsProps) {
  const [open, setOpen] = useState<Open>(null);
  const modal = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });
  const editable = stream.is_owner && !(stream.audience === 'PRIVATE' && stream.live === 'N');
  const session = useSession();
  const interactionDisabled = useInteractionDisabled();
  const asMember = useMemberAction();
  const openReport = () =>
    asMember(
      () => (interactionsPaused ? interactionDisabled.show() : setOpen('report')),
      () => setOpen('login'),
    );
  return (
    <section className={styles.details} aria-label="Stream info">
      <div className={styles.metaRow}>
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
          {stream.is_owner && <OwnerMenu onDelete={() => setOpen('delete')} />}
        </div>
      </div>
      {stream.description && <p className={styles.description}>{stream.description}</p>}
      <ShareModal {...modal('share')} url={window.location.href.replace(/&preview=1/, '')} title={shownTitle(stream.title)} />
      {editable && <StreamInfoModal {...modal('edit')} stream={stream} mode="edit" />}
      {stream.is_owner && <DeleteStreamModal {...modal('delete')} streamId={stream.stream_id} />}
      {!stream.is_owner && session.isLoggedIn && <ReportStreamModal {...modal('report')} stream={stream} />}
      <LoginPrompt {...modal('login')} />
      {interactionDisabled.modal}
    </section>
  );
}

/** Deleting is rare and final: it waits behind "More options", away from Edit. The menu's code loads when first opened. */
function OwnerMenu({ onDelete }: { onDelete: () => void }) {
  const button = (use?: () => void) => <Button variant="ghost" size="sm" icon={<MoreIcon size={16} />} aria-label="More options" aria-haspopup="menu" onClick={use} />;
  return (
    <LoadOnUse standIn={button}>
      <OwnerMenuList onDelete={onDelete} trigger={button()} />
    </LoadOnUse>
  );
}

/** The bookmark: on at once, back off with the server's reason when it refuses (spec part 1 §4 Bookmark). */
function SaveButton({ stream, onGuest }: { stream: StreamInfo; onGuest: () => void }) {
  const asMember = useMemberAction();
  const save = useSaveStream(stream.stream_id);
  const toast = useToast();
  const toggle = () =>
    asMember((user) => {
      if (save.isPending) return;
      save.mutate({ userId: user.user_id, save: !stream.saved }, { onError: (error) => toast({ title: failureMessage(error), tone: 'error' }) });
    }, onGuest);
  return (
    <Button variant={stream.saved ? 'primary' : 'secondary'} size="sm" icon={<BookmarkIcon size={16} />} aria-pressed={stream.saved} onClick={toggle}>
      {stream.saved ? 'Saved' : 'Save'}
    </Button>
  );
}
