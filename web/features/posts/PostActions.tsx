/**
 * What a viewer does with a post (spec part 1 §2 Post view, §5): like, save, share, and the actions
 * menu — Edit Audience for the owner's posts that are not private, Delete (with its confirmation) for
 * the owner and for moderators holding the post.delete right (the shared rule), Report for others' posts. Owners cannot like, save or report their own post; a guest is asked to
 * log in.
 */
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Post } from '../../../common/api/posts';
import { fill, MSG } from '../../../common/messages';
import { shortNumber } from '../../../common/rules/format';
import { mayModerate } from '../../../common/rules/moderation';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { BanIcon, BookmarkIcon, HeartIcon, MoreIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { useToast } from '../../ui/Toast';
import { useMemberAction, useSession } from '../accounts';
import menu from '../../ui/Menu.module.css';
import { ShareButton } from '../social';
import { ReportModal } from '../streams';
import { useDeletePost, useLikePost, useReportPost, useSavePost } from './api';
import { EditAudienceModal } from './PostAudience';
import { canEditAudience, isOwnPost, postPath } from './post-rules';
import styles from './PostViewPage.module.css';

type Open = 'audience' | 'delete' | 'report' | null;

export function PostActions({ post, onGuest }: { post: Post; onGuest: () => void }) {
  const { user } = useSession();
  const skinPath = useSkinPath();
  const [open, setOpen] = useState<Open>(null);
  const modal = (which: Exclude<Open, null>) => ({ open: open === which, onOpenChange: (o: boolean) => setOpen(o ? which : null) });
  const own = isOwnPost(post, user?.user_id ?? null);
  const editable = canEditAudience(post, user?.user_id ?? null);
  const deletable = own || mayModerate(user, 'post.delete');
  const report = () => (user ? setOpen('report') : onGuest());
  const shareUrl = `${window.location.origin}${skinPath(postPath(post.post_id))}`;

  return (
    <div className={styles.actions}>
      {own ? (
        <span className={styles.likes} aria-label={`${post.likes} likes`} title="Likes">
          <HeartIcon size={16} />
          {shortNumber(post.likes)}
        </span>
      ) : (
        <LikeButton post={post} onGuest={onGuest} />
      )}
      {!own && <SaveButton post={post} onGuest={onGuest} />}
      <ShareButton url={shareUrl} label="Share this post" />
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <Button variant="ghost" icon={<MoreIcon size={18} />} aria-label="Post actions" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={menu.content} align="end" sideOffset={6}>
            {editable && (
              <DropdownMenu.Item className={menu.item} onSelect={() => setOpen('audience')}>
                Edit Audience
              </DropdownMenu.Item>
            )}
            {deletable && (
              <DropdownMenu.Item className={`${menu.item} ${styles.dangerItem}`} onSelect={() => setOpen('delete')}>
                Delete
              </DropdownMenu.Item>
            )}
            {!own && (
              <DropdownMenu.Item className={menu.item} onSelect={report}>
                <BanIcon size={16} />
                Report
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {editable && <EditAudienceModal {...modal('audience')} post={post} />}
      {deletable && <DeletePostModal {...modal('delete')} post={post} own={own} />}
      {!own && user && <ReportPostModal {...modal('report')} post={post} />}
    </div>
  );
}

function LikeButton({ post, onGuest }: { post: Post; onGuest: () => void }) {
  const asMember = useMemberAction();
  const like = useLikePost(post.post_id);
  const toast = useToast();
  const liked = post.viewer_likes > 0;
  const toggle = () =>
    asMember(() => {
      if (like.isPending) return;
      like.mutate(!liked, { onError: (error) => toast({ title: fill(MSG.postLikeFailed, { message: failureMessage(error) }), tone: 'error' }) });
    }, onGuest);
  return (
    <Button variant={liked ? 'primary' : 'secondary'} icon={<HeartIcon size={16} />} aria-pressed={liked} onClick={toggle}>
      {liked ? 'Liked' : 'Like'} <span className={styles.countBadge}>{shortNumber(post.likes)}</span>
    </Button>
  );
}

/** The bookmark: on at once, back off with the server's reason when it refuses (spec part 1 §5 Bookmark). */
function SaveButton({ post, onGuest }: { post: Post; onGuest: () => void }) {
  const asMember = useMemberAction();
  const save = useSavePost(post.post_id);
  const toast = useToast();
  const toggle = () =>
    asMember(() => {
      if (save.isPending) return;
      save.mutate(!post.saved, { onError: (error) => toast({ title: failureMessage(error), tone: 'error' }) });
    }, onGuest);
  return (
    <Button variant={post.saved ? 'primary' : 'secondary'} icon={<BookmarkIcon size={16} />} aria-pressed={post.saved} onClick={toggle}>
      {post.saved ? 'Saved' : 'Save'}
    </Button>
  );
}

function DeletePostModal({ post, own, open, onOpenChange }: { post: Post; own: boolean; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeletePost(post.post_id);
  const navigate = useNavigate();
  const skinPath = useSkinPath();
  const toast = useToast();
  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: () => {
        toast({ title: own ? 'Your post is deleted' : 'The post is deleted', tone: 'success' });
        void navigate(skinPath(`/u/${post.user_id}?type=post`), { replace: true });
      },
    });
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Delete post"
      description={MSG.confirmDeletePost}
      size="sm"
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="danger" loading={remove.isPending} onClick={confirm}>
            Delete
          </Button>
        </>
      }
    >
      {remove.isError && <Alert>{failureMessage(remove.error)}</Alert>}
    </Modal>
  );
}

function ReportPostModal({ post, open, onOpenChange }: { post: Post; open: boolean; onOpenChange: (open: boolean) => void }) {
  const report = useReportPost(post.post_id);
  return (
    <ReportModal
      open={open}
      onOpenChange={onOpenChange}
      title="Report Post"
      description={`Tell us what is wrong with “${post.title}”. Our moderators review every report.`}
      report={report}
    />
  );
}
