import Hls from 'hls.js';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Spinner } from '../../ui/Spinner';
import { LIVE_SYNC } from './live-sync';
import { inFolderOf, renewIn } from './playback-address';
import { PlayerControls } from './PlayerControls';
import styles from './HlsPlayer.module.css';

/** The video state machine of spec part 1 §4, kept small. */
export type VideoState = 'loading' | 'playing' | 'paused' | 'ended' | 'lost';

interface HlsPlayerProps {
  src: string;
  /** Aspect of the box; 16:9 until the stream says otherwise. */
  width?: number | null;
  height?: number | null;
  muted?: boolean;
  onStateChange?: (state: VideoState) => void;
  /** The element, for callers that loop or time playback (preview mode). */
  videoRef?: React.RefObject<HTMLVideoElement | null>;
  /** A fresh signed address (playback tokens are short-lived: the server answers 403 once one expires). */
  refreshSource?: () => Promise<string | null>;
  /** Layers over the video (chat overlay, likes, tips): inside the box, so they go fullscreen with it. */
  children?: ReactNode;
  /** The picture shown until the first frame (a video post's thumbnail). */
  poster?: string | null;
  /** The video's accessible name. */
  label?: string;
}

/** Refreshes in a row without a playlist loading in between: past this the stream is gone for us. */
const MAX_TOKEN_REFRESHES = 3;
/**
 * Fresh starts after hls.js gave up on the network (its own retries spent) with no playlist loading in
 * between, each after a longer pause: an origin restarting or an instance dying behind the edge passes
 * in seconds and must not end the stream for the viewer.
 */
const MAX_NETWORK_RESTARTS = 3;
const NETWORK_RESTART_PAUSE_MS = 2_000;

/** Plays a signed HLS playlist: hls.js where MSE exists (Debian chromium), else the native player. */
export function HlsPlayer({ src, width, height, muted = true, onStateChange, videoRef, refreshSource, children, poster, label = 'Stream video' }: HlsPlayerProps) {
  const ownRef = useRef<HTMLVideoElement | null>(null);
  const ref = videoRef ?? ownRef;
  const [state, setState] = useState<VideoState>('loading');
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [hlsInstance, setHlsInstance] = useState<Hls | null>(null);
  // A live playlist (no end list yet) plays without a seek bar; a replay seeks.
  const [live, setLive] = useState(false);
  const report = useEffectEvent((next: VideoState) => onStateChange?.(next));
  const fetchFreshSource = useEffectEvent(() => (refreshSource ? refreshSource() : Promise.resolve(null)));

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    const set = (next: VideoState) => {
      setState(next);
      report(next);
    };
    let hls: Hls | null = null;
    let renewal: ReturnType<typeof setTimeout> | undefined;
    let restartTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    // Autoplay is allowed muted; the controls offer the sound.
    video.muted = muted;
    setVideo(video);
    if (Hls.isSupported()) {
      // The address in use: renewed before its token expires, and every later request goes to its token folder.
      let address = src;
      hls = new Hls({
        ...LIVE_SYNC, capLevelToPlayerSize: true, manifestLoadingMaxRetry: 4, levelLoadingMaxRetry: 4,
        xhrSetup: (xhr, url) => {
          const renewed = inFolderOf(url, address);
          if (renewed !== url) xhr.open('GET', renewed, true);
        },
      });
      const renew = () => {
        const wait = renewIn(address, Date.now());
        if (wait === null) return;
        renewal = setTimeout(() => {
          void fetchFreshSource().catch(() => null).then((next) => {
            if (next) address = next;
            renew();
          });
        }, wait);
      };
      renew();
      hls.on(Hls.Events.MANIFEST_PARSED, () => {
        // The 720p cap of the spec; capLevelToPlayerSize also keeps small players on small levels.
        const capped = hls?.levels.findLastIndex((level) => level.height <= 720) ?? -1;
        if (hls && capped >= 0 && capped < hls.levels.length - 1) hls.autoLevelCapping = capped;
      });
      let refreshes = 0;
      let restarts = 0;
      let refreshing = false;
      hls.on(Hls.Events.LEVEL_LOADED, (_event, data) => {
        refreshes = 0;
        restarts = 0;
        setLive(data.details.live);
      });
      /** Loads the playlist from `next` (the player was stopped meanwhile: nothing). */
      const loadFrom = (next: string) => {
        refreshing = false;
        if (stopped || !hls) return;
        address = next;
        hls.loadSource(next);
        hls.startLoad();
      };
      const freshSource = () => fetchFreshSource().catch(() => null);
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.response?.code === 403 && !refreshing && refreshes < MAX_TOKEN_REFRESHES) {
          // The token expired (or access changed): ask for a new address, which a retry could not fix.
          refreshing = true;
          refreshes += 1;
          void freshSource().then((next) => (next ? loadFrom(next) : set('lost')));
          return;
        }
        if (!data.fatal || refreshing) return;
        if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls?.recoverMediaError();
        else if (data.type === Hls.ErrorTypes.NETWORK_ERROR && restarts < MAX_NETWORK_RESTARTS) {
          restarts += 1;
          refreshing = true;
          restartTimer = setTimeout(() => void freshSource().then((next) => loadFrom(next ?? address)), NETWORK_RESTART_PAUSE_MS * restarts);
        } else set('lost');
      });
      hls.loadSource(src);
      hls.attachMedia(video);
    } else {
      video.src = src;
    }
    setHlsInstance(hls);
    const onDuration = () => !hls && setLive(video.duration === Infinity);
    video.addEventListener('durationchange', onDuration);
    // A new media source under the element (hls.js recovering from a media error, as on a switch to a
    // rendition whose codec differs) leaves it paused without a 'pause' event: it plays on unless paused.
    let wantsPlay = false;
    const onPlay = () => (wantsPlay = true);
    const onPlaying = () => set('playing');
    const onPause = () => {
      wantsPlay = false;
      if (!video.ended) set('paused');
    };
    const onEnded = () => set('ended');
    const onEmptied = () => wantsPlay && void video.play().catch(() => undefined);
    video.addEventListener('play', onPlay);
    video.addEventListener('playing', onPlaying);
    video.addEventListener('pause', onPause);
    video.addEventListener('ended', onEnded);
    video.addEventListener('emptied', onEmptied);
    void video.play().catch(() => set('paused'));
    return () => {
      video.removeEventListener('play', onPlay);
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('pause', onPause);
      video.removeEventListener('ended', onEnded);
      video.removeEventListener('emptied', onEmptied);
      video.removeEventListener('durationchange', onDuration);
      stopped = true;
      clearTimeout(renewal);
      clearTimeout(restartTimer);
      hls?.destroy();
    };
    // `muted` is where playback starts; the viewer's choice is the element's from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [src, ref]);

  const aspect = width && height ? `${width} / ${height}` : '16 / 9';
  return (
    <div ref={setBox} className={styles.box} style={{ aspectRatio: aspect }} tabIndex={-1}>
      <video ref={ref} className={styles.video} playsInline aria-label={label} poster={poster ?? undefined} />
      {children}
      {state === 'loading' && (
        <div className={styles.overlay}>
          <Spinner size="lg" label="Loading video" />
        </div>
      )}
      {box && video && <PlayerControls video={video} box={box} hls={hlsInstance} live={live && state !== 'ended'} />}
    </div>
  );
}
