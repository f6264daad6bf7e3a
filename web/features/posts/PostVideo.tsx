/**
 * A video post (spec part 1 §2 Post view): while it is converted, "processing" with its progress (the
 * page looks the post up every 3 s); a failed conversion says why; a ready one plays its HLS playlist.
 */
import { useState } from 'react';
import type { Post, PostMedia } from '../../../common/api/posts';
import { fill, MSG } from '../../../common/messages';
import { BanIcon } from '../../ui/icons';
import { ProgressBar } from '../../ui/ProgressBar';
import { Spinner } from '../../ui/Spinner';
import { Player } from '../streams';
import styles from './PostViewPage.module.css';

interface PostVideoProps {
  post: Post;
  /** Looks the post up again: its playlist address is signed and short-lived. */
  refresh: () => Promise<Post | undefined>;
}

export function PostVideo({ post, refresh }: PostVideoProps) {
  if (post.state === 'processing') {
    const progress = Math.round(post.progress);
    return (
      <div className={styles.videoState}>
        <Spinner size="lg" />
        <strong className={styles.processing}>{fill(MSG.videoProcessing, { progress })}</strong>
        <ProgressBar label={fill(MSG.videoProcessing, { progress })} value={progress} showHead={false} />
        <p className={styles.note}>The video plays here once it is ready.</p>
      </div>
    );
  }
  if (post.state === 'failed') {
    return (
      <div className={styles.videoState} role="alert">
        <BanIcon size={40} />
        <p>{post.failure ?? MSG.videoBroken}</p>
      </div>
    );
  }
  const video = post.media[0];
  if (!video) return <div className={styles.videoState}>{MSG.postNotAvailable}</div>;
  return <VideoPlayer key={video.media_id} video={video} title={post.title} poster={video.thumb_url || post.thumb_url} refresh={refresh} />;
}

/** The player keeps the address it started with: a fresher lookup must not restart the video. */
function VideoPlayer({ video, title, poster, refresh }: { video: PostMedia; title: string; poster: string | null; refresh: PostVideoProps['refresh'] }) {
  const [src] = useState(video.url);
  return (
    <Player
      src={src}
      width={video.width}
      height={video.height}
      poster={poster}
      label={`Video: ${title}`}
      refreshSource={async () => (await refresh())?.media[0]?.url ?? null}
    />
  );
}
