/**
 * /post/post-view?id= (spec part 1 §2 Post view): back to the creator's photos, the media (image
 * carousel, video, or the purchase confirmation of a paid post), the creator, likes, save, share, the
 * actions menu, and the comment tree. A subscribers-only post shows others its teaser and Subscribe; a
 * post the viewer may not see shows the 'not available' view.
 */
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { Post } from '../../../common/api/posts';
import { fill, MSG } from '../../../common/messages';
import { relativeTime } from '../../../common/rules/format';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { SkinLink, useSkinPath } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { Button, ButtonLink } from '../../ui/Button';
import { ImageIcon, LockIcon, RefreshIcon } from '../../ui/icons';
import { Notice } from '../../ui/Notice';
import { useSession, LoginPrompt } from '../accounts';
import { RATING_LABEL } from '../streams';
import { usePostLookup } from './api';
import { ImageCarousel } from './ImageCarousel';
import { PostActions } from './PostActions';
import { AUDIENCE_LABEL } from './PostAudience';
import { PostComments } from './PostComments';
import { PurchaseConfirmation } from './PostPurchase';
import { PostVideo } from './PostVideo';
import { SubscriberTeaser } from './SubscriberTeaser';
import { needsPurchase } from './post-rules';
import styles from './PostViewPage.module.css';

export function PostViewPage() {
  const [query] = useSearchParams();
  const id = Number(query.get('id'));
  if (!Number.isSafeInteger(id) || id <= 0) return <PostWall />;
  // Another post starts fresh: no carousel page or open reply left from the previous one.
  return <PostView key={id} id={id} />;
}

function PostView({ id }: { id: number }) {
  const lookup = usePostLookup(id);
  const [loginOpen, setLoginOpen] = useState(false);
  if (lookup.isPending) return <PostSkeleton />;
  if (lookup.isError) return <PostWall error={lookup.error} onRetry={() => void lookup.refetch()} />;
  const refresh = async () => (await lookup.refetch()).data;
  return (
    <>
      <PostLayout post={lookup.data} refresh={refresh} onGuest={() => setLoginOpen(true)} />
      <LoginPrompt open={loginOpen} onOpenChange={setLoginOpen} />
    </>
  );
}

interface PostLayoutProps {
  post: Post;
  refresh: () => Promise<Post | undefined>;
  onGuest: () => void;
}

/** Media first; on wide screens the creator, actions and comments are a column beside it. */
function PostLayout({ post, refresh, onGuest }: PostLayoutProps) {
  const { user } = useSession();
  const price = post.tip_viewer_min_amount > 0 ? `${post.tip_viewer_min_amount.toLocaleString('en-US')} Coins` : null;
  const chips = [AUDIENCE_LABEL[post.audience], price, post.content_rating === 'G' ? null : RATING_LABEL[post.content_rating]].filter(Boolean);
  return (
    <div className={styles.page}>
      <SkinLink to={`/u/${post.user_id}?type=post`} className={styles.back}>
        <span aria-hidden="true">‹</span> {post.kind === 'video' ? MSG.backToProfile : MSG.backToPhotos}
      </SkinLink>
      <div className={styles.layout}>
        <div className={styles.stage}>
          <PostMediaView post={post} viewerId={user?.user_id ?? null} refresh={refresh} onGuest={onGuest} />
        </div>
        <aside className={styles.side} aria-label="Post">
          <header className={styles.header}>
            <SkinLink to={`/u/${post.user_id}`} className={styles.author}>
              <Avatar name={post.user_name} src={post.user_avatar} size={40} />
              <span className={styles.authorName}>{post.user_name}</span>
            </SkinLink>
            {!post.scheduled && (
              <time className={styles.date} dateTime={post.entry_date} title={new Date(post.entry_date).toLocaleString()}>
                {relativeTime(post.entry_date)}
              </time>
            )}
          </header>
          <h1 className={styles.title}>{post.title}</h1>
          {post.scheduled && <p className={styles.scheduled}>{fill(MSG.postScheduledFor, { time: new Date(post.entry_date).toLocaleString() })}</p>}
          {chips.length > 0 && (
            <p className={styles.chips}>
              {chips.map((chip) => (
                <span key={chip} className={styles.chip}>
                  {chip}
                </span>
              ))}
            </p>
          )}
          {post.description && <p className={styles.description}>{post.description}</p>}
          {/* A teaser has no actions nor comments until the viewer subscribes. */}
          {!post.teaser && <PostActions post={post} onGuest={onGuest} />}
          {!post.teaser && <PostComments post={post} onGuest={onGuest} />}
        </aside>
      </div>
    </div>
  );
}

function PostMediaView({ post, viewerId, refresh, onGuest }: PostLayoutProps & { viewerId: number | null }) {
  if (post.teaser) return <SubscriberTeaser post={post} />;
  if (needsPurchase(post, viewerId)) return <PurchaseConfirmation post={post} onGuest={onGuest} />;
  if (post.kind === 'video') return <PostVideo post={post} refresh={refresh} />;
  if (post.media.length === 0) {
    return (
      <div className={styles.videoState}>
        <ImageIcon size={40} />
        <p>{MSG.postNotAvailable}</p>
      </div>
    );
  }
  return <ImageCarousel title={post.title} media={post.media} onExpired={refresh} />;
}

/** The 'not available' view (403, 404, no id), or a lookup that failed otherwise. */
function PostWall({ error, onRetry }: { error?: unknown; onRetry?: () => void }) {
  const session = useSession();
  const skinPath = useSkinPath();
  const location = useLocation();
  const home = <ButtonLink to={skinPath('/channel/group')}>Browse</ButtonLink>;
  const refused = error === undefined || (isApiError(error) && [400, 403, 404].includes(error.status));
  if (!refused) {
    return (
      <Notice
        title={fill(MSG.postLookupFailed, { message: failureMessage(error) })}
        art={<ImageIcon size={56} />}
        actions={
          <Button icon={<RefreshIcon size={18} />} onClick={onRetry}>
            Try again
          </Button>
        }
      />
    );
  }
  // A refusal (403) says why: followers only, subscribers only, adults only. A 404 has nothing to add.
  const reason = isApiError(error) && error.status === 403 ? error.message : null;
  const login = `${skinPath('/user/login')}?redirect=${encodeURIComponent(location.pathname + location.search)}`;
  const mayLogIn = !session.isLoggedIn && isApiError(error) && error.status === 403;
  return (
    <Notice
      title={MSG.postNotAvailable}
      art={mayLogIn ? <LockIcon size={56} /> : <ImageIcon size={56} />}
      actions={mayLogIn ? <ButtonLink to={login}>Log In</ButtonLink> : home}
    >
      {reason}
    </Notice>
  );
}

function PostSkeleton() {
  return (
    <div className={styles.page} role="status" aria-busy="true" aria-label="Loading the post">
      <div className={styles.layout}>
        <div className={styles.stage}>
          <div className={`${styles.skeletonMedia} ${styles.skeleton}`} />
        </div>
        <div className={styles.side}>
          <span className={`${styles.skeletonLine} ${styles.skeleton}`} />
          <span className={`${styles.skeletonLine} ${styles.skeletonShort} ${styles.skeleton}`} />
        </div>
      </div>
    </div>
  );
}
