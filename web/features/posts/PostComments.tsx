/**
 * A post's comment tree (spec part 1 §2 Post view): 10 comments a page with "Load more comments",
 * each with Reply (an inline form), "View N replies" paging its replies, and Report for others'
 * comments. A guest's comment, reply or report opens the login prompt.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { COMMENT } from '../../../common/api/posts';
import type { Comment, Post } from '../../../common/api/posts';
import { fill, MSG } from '../../../common/messages';
import { relativeTime } from '../../../common/rules/format';
import { failureMessage, schemaErrors } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { SendIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { TextArea } from '../../ui/TextArea';
import { useSession } from '../accounts';
import { ReportModal } from '../streams';
import { useComments, useCreateComment, useReportComment } from './api';
import { mergeComments, remainingComments } from './comment-paging';
import styles from './PostComments.module.css';
import * as posts from '../../../common/api/posts';

interface PostCommentsProps {
  post: Post;
  /** A guest tried to act: the page shows its login prompt. */
  onGuest: () => void;
}

export function PostComments({ post, onGuest }: PostCommentsProps) {
  // The viewer's new top-level comments, shown at once at the end of what is loaded.
  const [added, setAdded] = useState<Comment[]>([]);
  const headingId = useId();
  return (
    <section className={styles.comments} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        Comments <span className={styles.count}>{post.comments}</span>
      </h2>
      {post.comments_allowed ? (
        <CommentForm post={post} parentId={null} onGuest={onGuest} onPosted={(c) => setAdded((list) => [...list, c])} />
      ) : (
        <p className={styles.closed}>{MSG.commentsClosed}</p>
      )}
      <CommentList post={post} parentId={null} added={added} onGuest={onGuest} />
    </section>
  );
}

interface CommentListProps {
  post: Post;
  parentId: number | null;
  added: Comment[];
  onGuest: () => void;
}

/** One level of the tree: the comments of the post, or the replies to one comment. */
function CommentList({ post, parentId, added, onGuest }: CommentListProps) {
  const list = useComments(post.post_id, parentId);
  const pages = list.data?.pages ?? [];
  const shown = mergeComments(pages, added);
  const left = remainingComments(pages);
  if (list.isPending) return <Spinner label={parentId ? 'Loading the replies' : 'Loading the comments'} />;
  if (list.isError && shown.length === 0) return <p className={styles.closed}>{failureMessage(list.error)}</p>;
  if (shown.length === 0) return parentId ? null : <p className={styles.empty}>No comments yet.</p>;
  return (
    <>
      <ul className={parentId ? styles.replies : styles.list} aria-label={parentId ? 'Replies' : 'Comments'}>
        {shown.map((c) => (
          <li key={c.comment_id}>
            <CommentItem post={post} comment={c} onGuest={onGuest} />
          </li>
        ))}
      </ul>
      {list.hasNextPage && (
        <Button variant="ghost" size="sm" className={styles.more} loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {parentId ? `View ${left} more ${left === 1 ? 'reply' : 'replies'}` : 'Load more comments'}
        </Button>
      )}
    </>
  );
}

function CommentItem({ post, comment, onGuest }: { post: Post; comment: Comment; onGuest: () => void }) {
  const { user } = useSession();
  const [replying, setReplying] = useState(false);
  const [open, setOpen] = useState(false);
  const [added, setAdded] = useState<Comment[]>([]);
  const [reporting, setReporting] = useState(false);
  const own = user?.user_id === comment.user_id;
  // Replies the server counts, less those the viewer just wrote (shown already).
  const hidden = comment.replies - added.length;
  const reply = () => {
    if (!user) return onGuest();
    setReplying((r) => !r);
  };
  const report = () => (user ? setReporting(true) : onGuest());
  return (
    <article className={styles.comment} aria-label={`Comment by ${comment.username}`}>
      <SkinLink to={`/u/${comment.user_id}`} className={styles.avatar} aria-label={comment.username}>
        <Avatar name={comment.username} src={comment.avatar} size={32} />
      </SkinLink>
      <div className={styles.body}>
        <p className={styles.meta}>
          <SkinLink to={`/u/${comment.user_id}`} className={styles.author}>
            {comment.username}
          </SkinLink>
          <time dateTime={comment.entry_date} title={new Date(comment.entry_date).toLocaleString()}>
            {relativeTime(comment.entry_date)}
          </time>
        </p>
        <p className={styles.text}>{comment.body}</p>
        <div className={styles.actions}>
          {post.comments_allowed && (
            <button type="button" className={styles.link} aria-expanded={replying} onClick={reply}>
              Reply
            </button>
          )}
          {!own && (
            <button type="button" className={styles.link} aria-haspopup="dialog" onClick={report}>
              Report
            </button>
          )}
        </div>
        {replying && (
          <CommentForm
            post={post}
            parentId={comment.comment_id}
            replyTo={comment.username}
            onGuest={onGuest}
            onPosted={(c) => {
              setAdded((list) => [...list, c]);
              setOpen(true);
              setReplying(false);
            }}
            onCancel={() => setReplying(false)}
          />
        )}
        {!open && hidden > 0 && (
          <button type="button" className={styles.viewReplies} aria-expanded={false} onClick={() => setOpen(true)}>
            View {hidden} {hidden === 1 ? 'reply' : 'replies'}
          </button>
        )}
        {open && <CommentList post={post} parentId={comment.comment_id} added={added} onGuest={onGuest} />}
        {user && !own && <ReportCommentModal comment={comment} open={reporting} onOpenChange={setReporting} />}
      </div>
    </article>
  );
}

interface CommentFormProps {
  post: Post;
  parentId: number | null;
  replyTo?: string;
  onGuest: () => void;
  onPosted: (comment: Comment) => void;
  onCancel?: () => void;
}

/** New comment or reply: required, at least 3 characters ('Please leave a message'), the contract's own check. */
function CommentForm({ post, parentId, replyTo, onGuest, onPosted, onCancel }: CommentFormProps) {
  const { user } = useSession();
  const create = useCreateComment(post.post_id);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return onGuest();
    const problem = schemaErrors(posts.createComment.input, { post_id: post.post_id, body }).body;
    if (problem) return setError(problem);
    create.mutate(
      { body: body.trim(), parentId },
      {
        onSuccess: (comment) => {
          setBody('');
          setError(undefined);
          onPosted(comment);
        },
        onError: (failure) => setError(fill(MSG.commentFailed, { message: failureMessage(failure) })),
      },
    );
  };
  const label = replyTo ? `Reply to ${replyTo}` : 'Add a comment';
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextArea
        label={<span className="visually-hidden">{label}</span>}
        placeholder={replyTo ? `Reply to @${replyTo}…` : 'Add a comment…'}
        value={body}
        rows={parentId ? 2 : 3}
        maxLength={COMMENT.max}
        onChange={(e) => {
          setBody(e.target.value);
          setError(undefined);
        }}
        error={error}
        autoFocus={Boolean(parentId)}
      />
      <div className={styles.formActions}>
        {onCancel && (
          <Button variant="ghost" size="sm" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="sm" icon={<SendIcon size={16} />} loading={create.isPending}>
          {parentId ? 'Reply' : 'Comment'}
        </Button>
      </div>
    </form>
  );
}

function ReportCommentModal({ comment, open, onOpenChange }: { comment: Comment; open: boolean; onOpenChange: (open: boolean) => void }) {
  const report = useReportComment(comment.comment_id);
  return (
    <ReportModal
      open={open}
      onOpenChange={onOpenChange}
      title="Report Comment"
      description={`Tell us what is wrong with this comment by @${comment.username}. Our moderators review every report.`}
      report={report}
    />
  );
}
