import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { StreamInfo } from '../../../common/api/streams';
import { isApiError } from '../../api/client';
import type { ApiError } from '../../api/client';
import { lazyPage } from '../../app/lazy-page';
import { useSkinPath } from '../../app/skin';
import { Spinner } from '../../ui/Spinner';
import { LoginPrompt, useSession } from '../accounts';
import { BannerAd, PrerollGate, useBannerAd, useChatAdLines } from '../ads';
import { CHAT_OVERLAY_SLOT_ID, ChatPanel, loadReplayChat } from '../chat';
import type { ServiceMessage } from '../chat';
import { GoalBar, loadGoalList, useActiveGoal } from '../goals';
import { loadShowCurtain, loadShowOffers, shutOut, useStreamShow } from '../shows';
import { needsPayWall, owedFromRefusal, PayWall, supportersKey, tipEventOf, TipAnimations, TipSelector, TopSupporters, useTipAnimations } from '../tips';
import { freshPlaybackUrl, isBlockedFrom, useLeaveOnUnmount, useStreamJoin, useStreamLookup } from './api';
import { streamKeys } from '../../api/content-keys';
import type { VideoState } from './HlsPlayer';
import { Player } from './Player';
import { StreamSubscribeButton } from '../subscriptions';
import { loadToyDeviceAccess } from '../toys';
import { StreamDetails, StreamHeader } from './StreamDetails';
import { asksForRating, interactionsPaused, serviceAction } from './stream-interactions';
import { StreamWall, wallOf } from './StreamWall';
import { useLiveCounts } from './use-live-counts';
import { usePreviewCountdown } from './use-preview-countdown';
import styles from './StreamViewPage.module.css';

// Only a replay lists its goals: the list's code comes with the first replay shown.
const GoalList = lazyPage(loadGoalList, 'GoalList');
// A replay's chat follows its video: its code too comes with the first replay shown.
const ReplayChatPanel = lazyPage(loadReplayChat, 'ReplayChatPanel');
// The rating wall shows once a broadcast is over: its code comes then.
const RatingWall = lazyPage(() => import('./RatingWall'), 'RatingWall');
// Shows: their controls come once the stream's show state is known, the curtain when one shuts the viewer out.
const ShowOffers = lazyPage(loadShowOffers, 'ShowOffers');
const ShowCurtain = lazyPage(loadShowCurtain, 'ShowCurtain');
// Toy control is for the few who buy it: its code comes after the page's.
const ToyDeviceAccess = lazyPage(loadToyDeviceAccess, 'ToyDeviceAccess');

/** /streams/stream-view?id= (spec part 1 §2 Stream view); `&preview=1` plays a timed preview. */
export function StreamViewPage() {
  const [query] = useSearchParams();
  const id = Number(query.get('id'));
  if (!Number.isInteger(id) || id <= 0) return <StreamWall kind="not-available" />;
  return <StreamView key={id} id={id} preview={query.get('preview') === '1'} />;
}

function StreamView({ id, preview }: { id: number; preview: boolean }) {
  const lookup = useStreamLookup(id);
  // An unpaid viewer is not joined at all: the join would answer 402 (spec part 1 §6 pay wall).
  const walledByLookup = lookup.isSuccess && needsPayWall(lookup.data);
  const join = useStreamJoin(id, lookup.isSuccess && lookup.data.playable && !walledByLookup, preview);
  useLeaveOnUnmount(id, join.isSuccess);
  const queryClient = useQueryClient();
  const session = useSession();
  const [video, setVideo] = useState<VideoState>('loading');
  // STREAM-END arrived: the video is over whatever the element still has buffered.
  const [endedByServer, setEndedByServer] = useState(false);
  const [blocked, setBlocked] = useState(false);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const tips = useTipAnimations();

  // TIP-ENFORCE: the price changed. Pause, look the stream up again, and join again unless a wall now stands.
  async function enforcePayment() {
    videoRef.current?.pause();
    const key = streamKeys.lookup(id);
    await queryClient.refetchQueries({ queryKey: key }).catch(() => undefined);
    const fresh = queryClient.getQueryData<StreamInfo>(key);
    if (fresh && !needsPayWall(fresh)) void queryClient.resetQueries({ queryKey: streamKeys.join(id, preview) });
  }

  const onServiceMessage = (message: ServiceMessage) => {
    if (message.type === 'TIP') {
      const isOwner = queryClient.getQueryData<StreamInfo>(streamKeys.lookup(id))?.is_owner ?? false;
      tips.add(tipEventOf(message), isOwner);
      void queryClient.invalidateQueries({ queryKey: supportersKey(id) });
      return;
    }
    if (message.type === 'TIP-ENFORCE') return void enforcePayment();
    const known = queryClient.getQueryData<StreamInfo>(streamKeys.lookup(id));
    const action = serviceAction(message, session.user?.user_id ?? null, Boolean(known?.subscribed && known.tip_subscriber_discount >= 1));
    if (!action) return;
    const key = streamKeys.lookup(id);
    switch (action.kind) {
      case 'stream-end':
        videoRef.current?.pause();
        setEndedByServer(true);
        // REPLAY at once; the lookup then brings the replay's length and counts.
        queryClient.setQueryData<StreamInfo>(key, (old) => old && { ...old, live: 'N' });
        void queryClient.invalidateQueries({ queryKey: key });
        return;
      case 'block-check':
        void isBlockedFrom(id, preview).then((isBlocked) => isBlocked && setBlocked(true));
        return;
      case 'chat-options':
        queryClient.setQueryData<StreamInfo>(key, (old) => old && { ...old, chat_enabled: action.chatEnabled });
        return;
    }
  };

  if (lookup.isPending) return <StreamPageSkeleton />;
  if (lookup.isError) return <StreamWall kind={wallOf(lookup.error)} error={lookup.error} during="lookup" />;
  // Blocked: the wall replaces the player, so its source goes too (spec part 1 §4 Video state).
  if (blocked) return <StreamWall kind="block" />;
  const payRefusal = join.isError && isApiError(join.error, 'stream_payment_required') ? join.error : null;
  if (join.isError && !payRefusal) return <StreamWall kind={wallOf(join.error)} error={join.error} during="join" />;
  return (
    <StreamLayout
      stream={lookup.data}
      join={join.data}
      payRefusal={payRefusal}
      walledByLookup={walledByLookup}
      preview={preview}
      state={endedByServer ? 'ended' : video}
      onState={setVideo}
      videoRef={videoRef}
      onServiceMessage={onServiceMessage}
      tips={tips}
      onWatchAgain={() => {
        setEndedByServer(false);
        setVideo('loading');
        // A new join gives the replay's address; the player starts over from the first segment.
        void queryClient.resetQueries({ queryKey: streamKeys.join(id, preview) });
      }}
    />
  );
}

interface StreamLayoutProps {
  stream: StreamInfo;
  join: { url: { hls: string; width: number; height: number } } | undefined;
  payRefusal: ApiError | null;
  walledByLookup: boolean;
  preview: boolean;
  state: VideoState;
  onState: (state: VideoState) => void;
  videoRef: React.RefObject<HTMLVideoElement | null>;
  onServiceMessage: (message: ServiceMessage) => void;
  tips: ReturnType<typeof useTipAnimations>;
  onWatchAgain: () => void;
}

/**
 * Video and chat first, like the streaming sites people know: on wide screens the chat is a column as
 * tall as the window beside the player; on phones the video, the stream's line and the chat share the
 * first screen, the chat input at its bottom.
 */
function StreamLayout({ stream, join, payRefusal, walledByLookup, preview, state, onState, videoRef, onServiceMessage, tips, onWatchAgain }: StreamLayoutProps) {
  const counts = useLiveCounts(stream);
  const chatAds = useChatAdLines(stream);
  const owed = walledByLookup ? stream.tip_owed : payRefusal ? (owedFromRefusal(payRefusal.body) ?? stream.tip_owed) : 0;
  const activeGoal = useActiveGoal(stream);
  const goal = stream.live === 'Y' ? activeGoal : null;
  // The chat in time with the video: on a page opened on a replay, or once an ended broadcast is watched again.
  const [liveAtOpen] = useState(stream.live === 'Y');
  const [watchedAgain, setWatchedAgain] = useState(false);
  const replayChat = stream.ended && stream.playable && owed === 0 && (!liveAtOpen || watchedAgain);
  const session = useSession();
  const [loginOpen, setLoginOpen] = useState(false);
  const onGuest = session.isLoggedIn ? null : () => setLoginOpen(true);
  const shows = useStreamShow(stream.stream_id, stream.live === 'Y', session.user?.user_id ?? null).data ?? null;
  const curtain = shows && shutOut(shows.show, shows.seat, stream.is_owner) ? shows.show : null;
  return (
    <div className={styles.page}>
      <div className={styles.stage}>
        {owed > 0 ? (
          <PayWall stream={stream} owed={owed} />
        ) : curtain ? (
          <Suspense fallback={<div className={`${styles.skeletonVideo} ${styles.skeleton}`} />}>
            <ShowCurtain show={curtain} onGuest={onGuest} />
          </Suspense>
        ) : stream.playable ? (
          <StreamPlayer
            stream={stream}
            url={join?.url}
            preview={preview}
            state={state}
            onState={onState}
            videoRef={videoRef}
            onWatchAgain={() => {
              setWatchedAgain(true);
              onWatchAgain();
            }}
          />
        ) : (
          <div className={styles.waiting}>The stream has not started yet.</div>
        )}
        {goal && <GoalBar goal={goal} />}
      </div>
      <div className={styles.head}>
        <StreamHeader stream={stream} counts={counts} subscribeSlot={<StreamSubscribeButton stream={stream} />} />
      </div>
      <div className={styles.chat}>
        {replayChat ? (
          <Suspense fallback={<div className={`${styles.skeletonChat} ${styles.skeleton}`} />}>
            <ReplayChatPanel streamId={stream.stream_id} videoRef={videoRef} onServiceMessage={onServiceMessage} />
          </Suspense>
        ) : (
          // Paying (or a new price) changes what the chat may subscribe to: a fresh panel subscribes again.
          <ChatPanel
            key={stream.has_paid ? 'paid' : 'unpaid'}
            stream={stream}
            onServiceMessage={onServiceMessage}
            interactionsPaused={interactionsPaused(stream, state === 'paused')}
            localLines={chatAds}
            topSlot={goal && <GoalBar goal={goal} place="chat" />}
            tipSlot={(onGuest) => <TipSelector compact stream={stream} onGuest={onGuest} paused={interactionsPaused(stream, state === 'paused')} />}
          />
        )}
      </div>
      <div className={styles.info}>
        {shows && !stream.is_owner && stream.live === 'Y' && (
          <Suspense fallback={null}>
            <ShowOffers streamId={stream.stream_id} state={shows} onGuest={onGuest} />
          </Suspense>
        )}
        {stream.live === 'Y' && owed === 0 && (
          <Suspense fallback={null}>
            <ToyDeviceAccess streamId={stream.stream_id} room="stream" isHost={stream.is_owner} hostName={stream.username} />
          </Suspense>
        )}
        <StreamDetails stream={stream} interactionsPaused={interactionsPaused(stream, state === 'paused')} />
        {!stream.is_owner && <TopSupporters streamId={stream.stream_id} />}
        {stream.ended && (
          <Suspense fallback={null}>
            <GoalList streamId={stream.stream_id} />
          </Suspense>
        )}
      </div>
      <TipAnimations slotId={CHAT_OVERLAY_SLOT_ID} bursts={tips.bursts} received={tips.received} />
      <LoginPrompt open={loginOpen} onOpenChange={setLoginOpen} />
    </div>
  );
}

/** The page's shape while the stream is looked up: player, line, chat. */
function StreamPageSkeleton() {
  return (
    <div className={styles.page} role="status" aria-busy="true" aria-label="Loading the stream">
      <div className={styles.stage}>
        <div className={`${styles.skeletonVideo} ${styles.skeleton}`} />
      </div>
      <div className={`${styles.head} ${styles.skeletonHead}`}>
        <span className={`${styles.skeletonLine} ${styles.skeleton}`} />
        <span className={`${styles.skeletonLine} ${styles.skeletonShort} ${styles.skeleton}`} />
      </div>
      <div className={styles.chat}>
        <div className={`${styles.skeletonChat} ${styles.skeleton}`} />
      </div>
    </div>
  );
}

interface PlayerProps {
  stream: StreamInfo;
  url: { hls: string; width: number; height: number } | undefined;
  preview: boolean;
  state: VideoState;
  onState: (state: VideoState) => void;
  videoRef: React.RefObject<HTMLVideoElement | null>;
  onWatchAgain: () => void;
}

/** The player and the small state machine around it: a live stream that ends becomes a replay, then asks for a rating. */
function StreamPlayer({ stream, url, preview, state, onState, videoRef, onWatchAgain }: PlayerProps) {
  const queryClient = useQueryClient();
  const session = useSession();
  const [disconnected, setDisconnected] = useState(false);
  const [ratingDismissed, setRatingDismissed] = useState(false);
  // Watch Again plays no pre-roll (spec part 1 §4 Video state).
  const [replaying, setReplaying] = useState(false);
  const banner = useBannerAd(stream, state === 'playing');
  const skinPath = useSkinPath();
  const secondsLeft = usePreviewCountdown(preview && state === 'playing', skinPath(`/streams/stream-view?id=${stream.stream_id}`));

  async function onStateChange(next: VideoState) {
    onState(next);
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

  const over = state === 'ended' && stream.live === 'N' && !preview;
  const askRating = over && !ratingDismissed && asksForRating(stream, session.isLoggedIn);
  useEffect(() => {
    // The wall must be seen: leave the video's fullscreen.
    if (askRating && document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
  }, [askRating]);

  if (disconnected) return <StreamWall kind="disconnected" />;
  const watchAgain = () => {
    setRatingDismissed(false);
    setReplaying(true);
    onWatchAgain();
  };
  return (
    <div className={styles.player}>
      <PrerollGate stream={stream} replaying={replaying}>
        {url ? (
          <Player
            key={url.hls}
            src={url.hls}
            width={url.width}
            height={url.height}
            onStateChange={(s) => void onStateChange(s)}
            videoRef={videoRef}
            refreshSource={freshPlaybackUrl(stream.stream_id, preview)}
          >
            <div id={CHAT_OVERLAY_SLOT_ID} className={styles.overlaySlot} />
            <BannerAd banner={banner} />
          </Player>
        ) : (
          <div className={styles.waiting}>
            <Spinner size="lg" label="Joining the stream" />
          </div>
        )}
      </PrerollGate>
      {preview && state === 'playing' && <span className={styles.countdown} aria-live="polite">Preview ends in {secondsLeft}s</span>}
      {askRating && session.user ? (
        <Suspense fallback={null}>
          <RatingWall stream={stream} viewerId={session.user.user_id} onWatchAgain={watchAgain} onDismiss={() => setRatingDismissed(true)} />
        </Suspense>
      ) : (
        over && (
          <div className={styles.endCard}>
            <p>The stream has ended.</p>
            <button type="button" className={styles.replayButton} onClick={watchAgain}>
              Watch Again
            </button>
          </div>
        )
      )}
    </div>
  );
}
