import type { HlsConfig } from 'hls.js';

/**
 * How far behind the live edge hls.js plays a live playlist (bench/live-latency.ts measures the
 * result; decision 0028). In seconds, not segments: ffmpeg rounds a segment of 1.001 s up to a
 * target duration of 2, which would double a count-based distance. Low-latency mode is on only
 * because hls.js's catch-up (a playback rate up to maxLiveSyncPlaybackRate) runs only in it; our
 * playlists carry no parts or server control, so it changes nothing else. hls.js speeds up only
 * within a target duration of its target, and there is no liveMaxLatencyDuration: a viewer who paused
 * or went back stays there until they press LIVE.
 */
export const LIVE_SYNC: Partial<HlsConfig> = {
  lowLatencyMode: true,
  liveSyncDuration: 2,
  maxLiveSyncPlaybackRate: 1.2,
};
