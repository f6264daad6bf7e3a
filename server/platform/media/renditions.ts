/**
 * What the uploaded-video transcode and the live renditions share: H.264 profiles and levels as the
 * CODECS attribute names them, and the multivariant (master) playlist that lists renditions.
 */

/** H.264 profiles x264 is asked for: High for the top rendition, Main (no 8×8 transform) for older or smaller decoders. */
export type H264Profile = 'high' | 'main';

/**
 * profile_idc and constraint flags of the SPS x264 writes, as the first four hex digits of the
 * CODECS attribute: High 0x64 with no flags; Main 0x4d with constraint_set1 (x264 sets it for Main).
 * Nominal peak and buffer of a level are 1.25× higher for High (cpbBrVclFactor).
 */
const H264_PROFILES: Record<H264Profile, { codecPrefix: string; rateFactor: number }> = {
  high: { codecPrefix: '6400', rateFactor: 1.25 },
  main: { codecPrefix: '4d40', rateFactor: 1 },
};
/**
 * H.264 levels (Table A-1) from 3.0 on: macroblocks per second and per frame, peak video rate
 * (kbit/s) and VBV buffer (kbit) for Main. Nothing below 3.0 is claimed: every player handles it,
 * and it is what x264 would choose anyway for our rate caps. The decoded picture buffer needs no
 * check: x264 at our presets buffers at most 4 frames (max_dec_frame_buffering, for its B-pyramid),
 * and every level holds 4 frames of its largest picture.
 */
const H264_LEVELS = [
  { idc: 30, mbPerSecond: 40_500, mbPerFrame: 1_620, kbps: 10_000, bufferKbits: 10_000 },
  { idc: 31, mbPerSecond: 108_000, mbPerFrame: 3_600, kbps: 14_000, bufferKbits: 14_000 },
  { idc: 32, mbPerSecond: 216_000, mbPerFrame: 5_120, kbps: 20_000, bufferKbits: 20_000 },
  { idc: 40, mbPerSecond: 245_760, mbPerFrame: 8_192, kbps: 20_000, bufferKbits: 25_000 },
  { idc: 41, mbPerSecond: 245_760, mbPerFrame: 8_192, kbps: 50_000, bufferKbits: 62_500 },
  { idc: 42, mbPerSecond: 522_240, mbPerFrame: 8_704, kbps: 50_000, bufferKbits: 62_500 },
  { idc: 50, mbPerSecond: 589_824, mbPerFrame: 22_080, kbps: 135_000, bufferKbits: 135_000 },
  { idc: 51, mbPerSecond: 983_040, mbPerFrame: 36_864, kbps: 240_000, bufferKbits: 240_000 },
  { idc: 52, mbPerSecond: 2_073_600, mbPerFrame: 36_864, kbps: 240_000, bufferKbits: 240_000 },
  { idc: 60, mbPerSecond: 4_177_920, mbPerFrame: 139_264, kbps: 240_000, bufferKbits: 240_000 },
  { idc: 61, mbPerSecond: 8_355_840, mbPerFrame: 139_264, kbps: 480_000, bufferKbits: 480_000 },
  { idc: 62, mbPerSecond: 16_711_680, mbPerFrame: 139_264, kbps: 800_000, bufferKbits: 800_000 },
] as const;
/** The AAC encoder's object type: Low Complexity. */
export const AAC_CODEC = 'mp4a.40.2';

/**
 * The lowest H.264 level (level_idc, at least 30) whose limits hold a stream of this size, frame rate
 * and VBV cap (buffer twice the rate), as x264 checks them; x264 is told this level (`-level`), so the
 * CODECS attribute that names it is true.
 */
export function h264Level(width: number, height: number, framesPerSecond: number, profile: H264Profile, videoKbps: number): number {
  const mbWide = Math.ceil(width / 16);
  const mbHigh = Math.ceil(height / 16);
  const mbPerFrame = mbWide * mbHigh;
  const factor = H264_PROFILES[profile].rateFactor;
  const fits = H264_LEVELS.find(
    (l) =>
      mbPerFrame <= l.mbPerFrame &&
      Math.max(mbWide, mbHigh) ** 2 <= 8 * l.mbPerFrame &&
      mbPerFrame * framesPerSecond <= l.mbPerSecond &&
      videoKbps <= l.kbps * factor &&
      videoKbps * 2 <= l.bufferKbits * factor,
  );
  // Nothing holds it (a picture tens of thousands of pixels wide): the highest level, which x264 warns about.
  return fits?.idc ?? H264_LEVELS.at(-1)!.idc;
}

/** The CODECS attribute of a rendition: `avc1.64001f,mp4a.40.2` for High 3.1 with sound. */
export function codecsOf(profile: H264Profile, level: number, hasAudio: boolean): string {
  const video = `avc1.${H264_PROFILES[profile].codecPrefix}${level.toString(16).padStart(2, '0')}`;
  return hasAudio ? `${video},${AAC_CODEC}` : video;
}

export function even(n: number): number {
  return Math.floor(n / 2) * 2;
}

/** One line pair of a master playlist. */
export interface VariantEntry {
  /** Peak bit/s. */
  bandwidth: number;
  averageBandwidth?: number;
  width: number;
  height: number;
  /** Left out when unknown (a copied source in a codec we cannot name). */
  codecs?: string;
  /** Relative to the master: `0/index.m3u8`. */
  uri: string;
}

/**
 * The multivariant playlist as hls.js, Safari and ExoPlayer read it. Every rendition's segments start
 * on a keyframe, so the master says so too; `version` is the renditions' (ffmpeg writes 6 for
 * independent segments).
 */
export function masterPlaylistText(version: number, variants: VariantEntry[]): string {
  const lines = ['#EXTM3U', `#EXT-X-VERSION:${Math.max(3, version)}`, '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const v of variants) {
    const attributes = [
      `BANDWIDTH=${Math.ceil(v.bandwidth)}`,
      ...(v.averageBandwidth === undefined ? [] : [`AVERAGE-BANDWIDTH=${Math.ceil(v.averageBandwidth)}`]),
      `RESOLUTION=${v.width}x${v.height}`,
      ...(v.codecs ? [`CODECS="${v.codecs}"`] : []),
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, v.uri);
  }
  return `${lines.join('\n')}\n`;
}
