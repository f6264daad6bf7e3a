/**
 * Renditions of a live broadcast (LIVE_RENDITIONS, decision 0070): the encoder's picture copied as it
 * comes (`source`) and H.264 renditions scaled from it, each in a folder named after it
 * (`source/index.m3u8`, `480p/index.m3u8`), listed by a master playlist in the broadcast's folder.
 * One ffmpeg decodes the source once and encodes every scaled rendition; the sound is copied into each.
 */
import path from 'node:path';
import { PLAYLIST_NAME } from './hls-playlist';
import { AAC_CODEC, codecsOf, even, h264Level, masterPlaylistText, type H264Profile, type VariantEntry } from './renditions';

/** The scaled renditions a deployment may ask for: height, peak video rate (VBV cap) and H.264 profile. */
export const LIVE_LADDER = {
  '1080p': { height: 1080, videoKbps: 4500, profile: 'high' },
  '720p': { height: 720, videoKbps: 3000, profile: 'high' },
  '480p': { height: 480, videoKbps: 1500, profile: 'main' },
  '360p': { height: 360, videoKbps: 1000, profile: 'main' },
  '240p': { height: 240, videoKbps: 500, profile: 'main' },
} as const satisfies Record<string, { height: number; videoKbps: number; profile: H264Profile }>;
export type ScaledName = keyof typeof LIVE_LADDER;
export type RenditionName = 'source' | ScaledName;
export const RENDITION_NAMES: readonly RenditionName[] = ['source', ...(Object.keys(LIVE_LADDER) as ScaledName[])];
/** A variant's folder in a broadcast (and in its playback address). */
export const VARIANT_FOLDER = /^(source|\d{3,4}p)$/;

/** Keyframes (and so segment cuts) of every scaled rendition: each second, as hls_time. */
export const LIVE_KEYFRAME_SECONDS = 1;
/** Live encoding must keep up with the clock on a shared machine: veryfast, no look-ahead or B-frame delay. */
export const LIVE_X264_PRESET = 'veryfast';
export const LIVE_X264_CRF = 23;
/** What the copied sound may add to a scaled rendition's rate, for BANDWIDTH. */
const AUDIO_ALLOWANCE_KBPS = 160;
/** Transport stream overhead on top of the elementary streams, as ffmpeg's own master playlists assume (+10 %). */
const TS_OVERHEAD = 1.1;
/** Frame rate the level is chosen for: the encoder's is not known yet when ffmpeg starts, and a level that holds 60 holds less. */
const LEVEL_FRAME_RATE = 60;

/**
 * LIVE_RENDITIONS: `source,720p,480p,360p` (any order; `source` is the encoder's picture copied). Empty:
 * none, one copied rendition without a master playlist (as before). Throws a message naming what is wrong.
 */
export function parseLiveRenditions(text: string | undefined): RenditionName[] {
  const names = (text ?? '').split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  for (const name of names) {
    if (!RENDITION_NAMES.includes(name as RenditionName)) throw new Error(`"${name}" is not a rendition (choose from ${RENDITION_NAMES.join(', ')})`);
  }
  const unique = new Set(names);
  if (unique.size !== names.length) throw new Error('a rendition is named twice');
  if (names.length === 1 && names[0] === 'source') return [];
  return RENDITION_NAMES.filter((name) => unique.has(name));
}

export interface LiveVariant {
  name: RenditionName;
  width: number;
  height: number;
  /** Scaled and encoded; absent for the copied source. */
  encode?: { profile: H264Profile; level: number; videoKbps: number };
}

/**
 * The variants of a broadcast whose encoder sends `source`: never upscaled (a rendition taller than the
 * source is left out, and one as tall when the source itself is offered); the source copied when it is
 * asked for or when nothing else is left. `keep`: a reconnect continues exactly the variants the
 * broadcast began with (its master playlist), whatever the encoder now sends.
 */
export function liveVariants(names: readonly RenditionName[], source: { width: number; height: number }, keep?: readonly string[]): LiveVariant[] {
  const offered = keep ?? names;
  const withSource = offered.includes('source');
  const variants: LiveVariant[] = withSource ? [{ name: 'source', width: source.width, height: source.height }] : [];
  for (const name of offered) {
    if (name === 'source' || !(name in LIVE_LADDER)) continue;
    const rung = LIVE_LADDER[name as ScaledName];
    if (!keep && (rung.height > source.height || (withSource && rung.height === source.height))) continue;
    const width = Math.max(2, even(Math.round((source.width * rung.height) / source.height)));
    const level = h264Level(width, rung.height, LEVEL_FRAME_RATE, rung.profile, rung.videoKbps);
    variants.push({ name: name as ScaledName, width, height: rung.height, encode: { profile: rung.profile, level, videoKbps: rung.videoKbps } });
  }
  return variants.length > 0 ? variants : [{ name: 'source', width: source.width, height: source.height }];
}

/**
 * ffmpeg's arguments after its input: each variant an HLS output of its own in its folder. Scaled
 * renditions get a keyframe every second (forced, no scene cuts), so their segments are cut at the same
 * instants; the copied source is cut at the encoder's keyframes, which line up with them when the
 * encoder's interval is whole seconds.
 */
export function liveVariantOutputs(variants: readonly LiveVariant[], dir: string, hlsOptions: Record<string, string>): string[] {
  const scaled = variants.filter((v) => v.encode);
  const graph = scaled.length === 0 ? [] : [
    '-filter_complex',
    [`[0:v]split=${scaled.length}${scaled.map((_, i) => `[in${i}]`).join('')}`, ...scaled.map((v, i) => `[in${i}]scale=${v.width}:${v.height},setsar=1,format=yuv420p[out${i}]`)].join(';'),
  ];
  const hls = Object.entries(hlsOptions).flatMap(([name, value]) => [`-${name}`, value]);
  const outputs = variants.flatMap((v) => {
    const folder = path.join(dir, v.name);
    const target = ['-f', 'hls', ...hls, '-hls_segment_filename', path.join(folder, 'seg_%05d.ts'), path.join(folder, PLAYLIST_NAME)];
    if (!v.encode) return ['-map', '0:v?', '-map', '0:a?', '-c', 'copy', ...target];
    const { profile, level, videoKbps } = v.encode;
    // prettier-ignore
    return [
      '-map', `[out${scaled.indexOf(v)}]`, '-map', '0:a?',
      '-c:v', 'libx264', '-preset', LIVE_X264_PRESET, '-tune', 'zerolatency', '-profile:v', profile, '-level:v', (level / 10).toFixed(1),
      '-crf', String(LIVE_X264_CRF), '-maxrate:v', `${videoKbps}k`, '-bufsize:v', `${videoKbps * 2}k`,
      '-force_key_frames', `expr:gte(t,n_forced*${LIVE_KEYFRAME_SECONDS})`, '-sc_threshold', '0',
      '-c:a', 'copy',
      ...target,
    ];
  });
  return [...graph, ...outputs];
}

/** What is known of the encoder's own stream when the master playlist is written. */
export interface SourceFacts {
  /** Measured over the publish so far (video and sound). */
  bitrateKbps: number | null;
  /** `avc1.64001f` from its sequence header; null for another codec. */
  videoCodec: string | null;
  /** The encoder's sound is AAC (copied into every variant); false: another codec or none. */
  aac: boolean;
  hasAudio: boolean;
}

/**
 * The master playlist over the variants (written once each has its first segment). A live rendition's
 * peak cannot be measured beforehand: BANDWIDTH is its cap plus the sound, +10 % for the transport stream,
 * and the source's its measured rate +10 % (the encoder's own setting is not sent).
 */
export function liveMasterPlaylist(variants: readonly LiveVariant[], source: SourceFacts, version: number): string {
  const audio = source.hasAudio ? (source.aac ? AAC_CODEC : null) : '';
  const entries = variants.map((v): VariantEntry => {
    const uri = `${v.name}/${PLAYLIST_NAME}`;
    if (v.encode) {
      const codecs = audio === null ? undefined : codecsOf(v.encode.profile, v.encode.level, audio !== '');
      const kbps = v.encode.videoKbps + (source.hasAudio ? AUDIO_ALLOWANCE_KBPS : 0);
      return { bandwidth: Math.round(kbps * 1000 * TS_OVERHEAD), width: v.width, height: v.height, codecs, uri };
    }
    const top = Math.max(...variants.map((x) => x.encode?.videoKbps ?? 0));
    // Nothing measured yet (a publish shorter than a second): at least the highest rendition's rate.
    const kbps = source.bitrateKbps ?? top + AUDIO_ALLOWANCE_KBPS;
    const codecs = source.videoCodec && audio !== null ? [source.videoCodec, ...(audio ? [audio] : [])].join(',') : undefined;
    return { bandwidth: Math.round(kbps * 1000 * TS_OVERHEAD), width: v.width, height: v.height, codecs, uri };
  });
  return masterPlaylistText(version, entries);
}
