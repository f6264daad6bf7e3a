import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { StreamInfo } from '../../../common/api/streams';
import { useSkinPath } from '../../app/skin';
import { Spinner } from '../../ui/Spinner';
import { PageSpinner } from '../accounts/gates';
import { freshPlaybackUrl, streamKeys, useLeaveOnUnmount, useStreamJoin, useStreamLookup } from './api';
import type { VideoState } from './HlsPlayer';
import { Player } from './Player';
import { StreamDetails } from './StreamDetails';
import { StreamWall, wallOf } from './StreamWall';
import { usePreviewCountdown } from './use-preview-countdown';
import styles from './StreamViewPage.module.css';

/** /streams/stream-view?id= (spec part 1 §2 Stream view); `&preview=1` plays a timed preview. */
export function StreamViewPage() {
  const [query] = useSearchParams();
  const id = Number(query.get('id'));
  if (!Number.isInteger(id) || id <= 0) return <StreamWall kind="not-available" />;
  return <StreamView key={id} id={id} preview={query.get('preview') === '1'} />;
}

function StreamView({ id, preview }: { id: number; preview: boolean }) {
  const lookup = useStreamLookup(id);
  const join = useStreamJoin(id, lookup.isSuccess && lookup.data.playable, preview);
  useLeaveOnUnmount(id, join.isSuccess);
  if (lookup.isPending) return <PageSpinner />;
  if (lookup.isError) return <StreamWall kind={wallOf(lookup.error)} error={lookup.error} />;
  if (join.isError) return <StreamWall kind={wallOf(join.error)} error={join.error} />;
  const stream = lookup.data;
  return (
    <div className={styles.page}>
      {stream.playable ? <StreamPlayer stream={stream} url={join.data?.url} preview={preview} /> : <div className={styles.waiting}>The stream has not started yet.</div>}
      <StreamDetails stream={stream} />
    </div>
  );
}

interface PlayerProps {
  stream: StreamInfo;
  url: { hls: string; width: number; height: number } | undefined;
  preview: boolean;
}

/** The player and the small state machine around it: a live stream that ends becomes a replay. */
function StreamPlayer({ stream, url, preview }: PlayerProps) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<VideoState>('loading');
  const [disconnected, setDisconnected] = useState(false);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const skinPath = useSkinPath();
  const secondsLeft = usePreviewCountdown(preview && state === 'playing', skinPath(`/streams/stream-view?id=${stream.stream_id}`));

  async function onStateChange(next: VideoState) {
    setState(next);
    if (next === 'ended' && preview) {
      void videoRef.current?.play();
      return;
    }
    if (next !== 'ended' && next !== 'lost') return;
    if (stream.live !== 'Y') {
      if (next === 'lost') setDisconnected(true);
      return;
    }
    // The live feed stopped: ask again whether the stream ended (REPLAY) or we lost it.
    const key = streamKeys.lookup(stream.stream_id);
    await queryClient.refetchQueries({ queryKey: key }).catch(() => undefined);
    if (next === 'lost' && queryClient.getQueryData<StreamInfo>(key)?.live !== 'N') setDisconnected(true);
  }

  if (disconnected) return <StreamWall kind="disconnected" />;
  const replayOver = state === 'ended' && stream.live === 'N' && !preview;
  return (
    <div className={styles.player}>
      {url ? (
        <Player
          key={url.hls}
          src={url.hls}
          width={url.width}
          height={url.height}
          onStateChange={(s) => void onStateChange(s)}
          videoRef={videoRef}
          refreshSource={freshPlaybackUrl(stream.stream_id, preview)}
        />
      ) : (
        <div className={styles.waiting}>
          <Spinner size="lg" label="Joining the stream" />
        </div>
      )}
      {preview && state === 'playing' && <span className={styles.countdown} aria-live="polite">Preview ends in {secondsLeft}s</span>}
      {replayOver && (
        <div className={styles.endCard}>
          <p>The stream has ended.</p>
          <button type="button" className={styles.replayButton} onClick={() => void queryClient.resetQueries({ queryKey: streamKeys.join(stream.stream_id, false) })}>
            Watch the replay
          </button>
        </div>
      )}
    </div>
  );
}
