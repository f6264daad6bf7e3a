import Hls from 'hls.js';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ExitFullscreenIcon, FullscreenIcon, PauseIcon, PlayIcon, VolumeIcon, VolumeOffIcon } from '../../ui/icons';
import { atLiveEdge, qualityOptions } from './player-controls';
import type { QualityOption } from './player-controls';
import { clock } from './session-timer';
import styles from './PlayerControls.module.css';

interface PlayerControlsProps {
  video: HTMLVideoElement;
  /** What goes fullscreen: the video with its overlays (chat, likes, tips). */
  box: HTMLElement;
  hls: Hls | null;
  /** A live playlist: no seek bar, a LIVE badge that goes back to the live edge. */
  live: boolean;
}

/** The controls change the element and the hls.js instance they were given (outside React's state). */
const setVideo = (video: HTMLVideoElement, patch: Partial<Pick<HTMLVideoElement, 'muted' | 'volume' | 'currentTime'>>) => Object.assign(video, patch);
const setLevel = (hls: Hls, level: number) => Object.assign(hls, { currentLevel: level });

/** Controls hide after this long without the pointer moving over a playing video. */
const IDLE_MS = 3000;

/** What the controls show, read from the element on each of its events. */
function useVideoSnapshot(video: HTMLVideoElement) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const bump = () => setTick((t) => t + 1);
    const events = ['play', 'pause', 'playing', 'volumechange', 'timeupdate', 'durationchange', 'progress', 'seeked', 'ended'];
    for (const e of events) video.addEventListener(e, bump);
    return () => {
      for (const e of events) video.removeEventListener(e, bump);
    };
  }, [video]);
  const seekable = video.seekable;
  return {
    paused: video.paused,
    muted: video.muted || video.volume === 0,
    volume: video.volume,
    currentTime: video.currentTime,
    duration: Number.isFinite(video.duration) ? video.duration : 0,
    seekableEnd: seekable.length > 0 ? seekable.end(seekable.length - 1) : null,
  };
}

function useFullscreen(box: HTMLElement): boolean {
  return useSyncExternalStore(
    (notify) => {
      document.addEventListener('fullscreenchange', notify);
      return () => document.removeEventListener('fullscreenchange', notify);
    },
    () => document.fullscreenElement === box,
  );
}

/** hls.js's renditions as a menu (none for a single rendition) and the one chosen. */
function useQuality(hls: Hls | null): { options: QualityOption[]; chosen: number; choose: (level: number) => void } {
  const [options, setOptions] = useState<QualityOption[]>([]);
  const [chosen, setChosen] = useState(-1);
  const chosenHeight = useRef<number | null>(null);
  useEffect(() => {
    if (!hls) return;
    const read = () => setOptions(qualityOptions(hls.levels));
    // A new playlist (the player's new address after a 403) starts on Auto: the chosen height is kept.
    const reload = () => {
      read();
      const level = chosenHeight.current === null ? -1 : hls.levels.findIndex((l) => l.height === chosenHeight.current);
      if (level >= 0) Object.assign(hls, { loadLevel: level });
      setChosen(level);
    };
    read();
    hls.on(Hls.Events.MANIFEST_PARSED, reload);
    hls.on(Hls.Events.LEVELS_UPDATED, read);
    return () => {
      hls.off(Hls.Events.MANIFEST_PARSED, reload);
      hls.off(Hls.Events.LEVELS_UPDATED, read);
    };
  }, [hls]);
  const choose = (level: number) => {
    if (!hls) return;
    // A chosen level switches now; Auto hands the choice back to hls.js.
    setLevel(hls, level);
    setChosen(level);
    chosenHeight.current = hls.levels[level]?.height ?? null;
  };
  return { options, chosen, choose };
}

/** Hidden while a video plays untouched; back on pointer movement, touch or focus. */
function useIdle(box: HTMLElement, playing: boolean): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wake = () => {
      setIdle(false);
      clearTimeout(timer);
      timer = setTimeout(() => setIdle(true), IDLE_MS);
    };
    wake();
    const events = ['pointermove', 'pointerdown', 'keydown', 'focusin'];
    for (const e of events) box.addEventListener(e, wake);
    return () => {
      clearTimeout(timer);
      for (const e of events) box.removeEventListener(e, wake);
    };
  }, [box]);
  return idle && playing;
}

/** The stream player's own controls: play, volume and unmute, LIVE (live) or a seek bar (replay), quality, fullscreen. */
export function PlayerControls({ video, box, hls, live }: PlayerControlsProps) {
  const v = useVideoSnapshot(video);
  const fullscreen = useFullscreen(box);
  const quality = useQuality(hls);
  const idle = useIdle(box, !v.paused);
  // Autoplay starts muted; until the viewer chooses the sound themselves, the video asks to be unmuted.
  const [soundChosen, setSoundChosen] = useState(false);
  // On a touch screen, a tap on a video whose controls are hidden shows them rather than pausing.
  const pressed = useRef({ touch: false, whileIdle: false });
  const coarse = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;

  const togglePlay = () => (video.paused ? void video.play().catch(() => undefined) : video.pause());
  const setMuted = (muted: boolean) => {
    setSoundChosen(true);
    setVideo(video, !muted && video.volume === 0 ? { muted, volume: 1 } : { muted });
  };
  const setVolume = (volume: number) => {
    setSoundChosen(true);
    setVideo(video, { volume, muted: volume === 0 });
  };
  const liveEdge = hls?.liveSyncPosition ?? v.seekableEnd;
  const onEdge = atLiveEdge(v.currentTime, liveEdge, v.paused);
  const goLive = () => {
    if (liveEdge !== null) setVideo(video, { currentTime: liveEdge });
    void video.play().catch(() => undefined);
  };
  const toggleFullscreen = () => {
    if (fullscreen) return void document.exitFullscreen().catch(() => undefined);
    if (box.requestFullscreen) return void box.requestFullscreen().catch(() => undefined);
    // iOS Safari: only the video element itself goes fullscreen.
    (video as HTMLVideoElement & { webkitEnterFullscreen?: () => void }).webkitEnterFullscreen?.();
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target !== box && event.target !== video) return;
      if (event.key === ' ' || event.key === 'k') togglePlay();
      else if (event.key === 'm') setMuted(!video.muted);
      else if (event.key === 'f') toggleFullscreen();
      else return;
      event.preventDefault();
    };
    box.addEventListener('keydown', onKey);
    return () => box.removeEventListener('keydown', onKey);
  });

  return (
    <>
      {/* The video surface: a click plays or pauses, a double click goes fullscreen. */}
      <div
        className={styles.surface}
        onPointerDown={(e) => (pressed.current = { touch: e.pointerType === 'touch', whileIdle: idle })}
        onClick={() => !(pressed.current.touch && pressed.current.whileIdle) && togglePlay()}
        onDoubleClick={toggleFullscreen}
        aria-hidden="true"
      />
      {v.muted && !soundChosen && (
        <button type="button" className={styles.unmute} onClick={() => setMuted(false)}>
          <VolumeOffIcon size={18} />
          {coarse ? 'Tap to unmute' : 'Click to unmute'}
        </button>
      )}
      <div className={`${styles.bar} ${idle ? styles.hidden : ''}`} role="group" aria-label="Video controls">
        {!live && v.duration > 0 && (
          <input
            className={styles.seek}
            type="range"
            aria-label="Seek"
            min={0}
            max={v.duration}
            step={0.1}
            value={Math.min(v.currentTime, v.duration)}
            aria-valuetext={`${clock(v.currentTime)} of ${clock(v.duration)}`}
            onChange={(e) => setVideo(video, { currentTime: Number(e.target.value) })}
          />
        )}
        <div className={styles.row}>
          <button type="button" className={styles.button} onClick={togglePlay} aria-label={v.paused ? 'Play' : 'Pause'}>
            {v.paused ? <PlayIcon size={20} /> : <PauseIcon size={20} />}
          </button>
          <div className={styles.volume}>
            <button type="button" className={styles.button} onClick={() => setMuted(!v.muted)} aria-label={v.muted ? 'Unmute' : 'Mute'}>
              {v.muted ? <VolumeOffIcon size={20} /> : <VolumeIcon size={20} />}
            </button>
            <input
              className={styles.volumeSlider}
              type="range"
              aria-label="Volume"
              min={0}
              max={1}
              step={0.05}
              value={v.muted ? 0 : v.volume}
              onChange={(e) => setVolume(Number(e.target.value))}
            />
          </div>
          {live ? (
            <button
              type="button"
              className={`${styles.live} ${onEdge ? styles.liveOn : ''}`}
              onClick={goLive}
              aria-label={onEdge ? 'LIVE' : 'Behind live: jump to live'}
              title={onEdge ? 'Watching live' : 'Jump to live'}
            >
              <span className={styles.liveDot} aria-hidden="true" />
              LIVE
            </button>
          ) : (
            <span className={styles.time}>
              {clock(v.currentTime)} / {clock(v.duration)}
            </span>
          )}
          <span className={styles.spacer} />
          {quality.options.length > 0 && (
            <select className={styles.quality} aria-label="Quality" value={quality.chosen} onChange={(e) => quality.choose(Number(e.target.value))}>
              {quality.options.map((o) => (
                <option key={o.level} value={o.level}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
          <button type="button" className={styles.button} onClick={toggleFullscreen} aria-label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}>
            {fullscreen ? <ExitFullscreenIcon size={20} /> : <FullscreenIcon size={20} />}
          </button>
        </div>
      </div>
    </>
  );
}
