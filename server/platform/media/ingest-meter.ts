/**
 * Ingest health measured from the packets the encoder actually sends, as node-media-server parses
 * them off the RTMP connection. Why this source and not another:
 * - the encoder's onMetaData (node-media-server's `videoFramerate`, `videoDatarate`) is what the
 *   encoder was configured to send, not what arrives, and some encoders send none;
 * - the remuxer's HLS segments are cut by our `-hls_time`, so they hide the encoder's GOP;
 * - probing the remuxer's output would start one more ffmpeg per stream.
 * Bitrate counts the bytes that arrived in the last few seconds of wall time (a choked uplink shows
 * here) — each packet's own size, not its buffer's, which node-media-server reuses and keeps longer; frame rate and keyframe interval use the packets' own timestamps (the encoder's clock), so
 * network jitter does not distort them; the resolution comes from the H.264 sequence header.
 */
import { parseH264Sps } from 'node-media-server/src/protocol/sps_info.js';

/** The fields of node-media-server's AVPacket the meter reads. */
export interface MediaPacket {
  /** 8 audio, 9 video, 18 script data. */
  codec_type: number;
  codec_id: number;
  /** 0 audio header, 1 audio frame, 2 video header, 3 keyframe, 4 other video frame, 5 metadata. */
  flags: number;
  /** Milliseconds on the encoder's clock. */
  dts: number;
  /** The packet's bytes: node-media-server hands its parser's reused buffer, longer than the packet. */
  size?: number;
  data: Buffer;
}

export interface IngestReading {
  /** Kilobits per second arriving, over the last few seconds. */
  bitrateKbps: number | null;
  framesPerSecond: number | null;
  width: number | null;
  height: number | null;
  /** Seconds between the last two keyframes; null until two arrived. */
  keyframeIntervalSeconds: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Seconds of arrivals the bitrate and frame rate are measured over. */
  measuredSeconds: number;
}

const WINDOW_MS = 5_000;
const KEYFRAMES_KEPT = 4;
const VIDEO = 9;
const AUDIO = 8;
const FLV_H264 = 7;
const FLV_HEVC = 12;

const VIDEO_CODECS: Record<number, string> = {
  [FLV_H264]: 'H.264',
  [FLV_HEVC]: 'HEVC',
  0x68766331: 'HEVC', // enhanced RTMP FourCC 'hvc1'
  0x61763031: 'AV1', // 'av01'
  0x76703039: 'VP9', // 'vp09'
};
const AUDIO_CODECS: Record<number, string> = { 2: 'MP3', 10: 'AAC', 11: 'Speex', 13: 'Opus' };

/** The width and height in an FLV AVC sequence header (AVCDecoderConfigurationRecord after 5 tag bytes). */
export function avcSequenceHeaderSize(data: Buffer): { width: number; height: number } | null {
  // [5] version, [6..8] profile/compat/level, [9] length size, [10] SPS count, [11..12] SPS length, [13..] SPS
  if (data.length < 14 || (data[10]! & 0x1f) === 0) return null;
  const length = data.readUInt16BE(11);
  if (data.length < 13 + length) return null;
  return parseH264Sps(data.subarray(13, 13 + length));
}

/** The CODECS name of the stream an FLV AVC sequence header describes: `avc1.64001f` (profile, constraints, level). */
export function avcCodecName(data: Buffer): string | null {
  if (data.length < 9) return null;
  return `avc1.${data.subarray(6, 9).toString('hex')}`;
}

export class IngestMeter {
  private arrivals: { at: number; bytes: number }[] = [];
  private frames: { at: number; dts: number }[] = [];
  private keyframes: number[] = [];
  private firstAt: number | null = null;
  private size: { width: number; height: number } | null = null;
  private avcCodec: string | null = null;
  private videoCodec: string | null = null;
  private audioCodec: string | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  observe(packet: MediaPacket): void {
    const at = this.now();
    this.firstAt ??= at;
    this.arrivals.push({ at, bytes: packet.size ?? packet.data.length });
    if (packet.codec_type === AUDIO) this.audioCodec ??= AUDIO_CODECS[packet.codec_id] ?? `codec ${packet.codec_id}`;
    if (packet.codec_type === VIDEO) this.observeVideo(packet, at);
    this.forget(at);
  }

  private observeVideo(packet: MediaPacket, at: number) {
    this.videoCodec = VIDEO_CODECS[packet.codec_id] ?? `codec ${packet.codec_id}`;
    if (packet.flags === 2 && packet.codec_id === FLV_H264) {
      this.size = avcSequenceHeaderSize(packet.data) ?? this.size;
      this.avcCodec = avcCodecName(packet.data) ?? this.avcCodec;
    }
    if (packet.flags !== 3 && packet.flags !== 4) return;
    this.frames.push({ at, dts: packet.dts });
    if (packet.flags === 3) {
      this.keyframes.push(packet.dts);
      if (this.keyframes.length > KEYFRAMES_KEPT) this.keyframes.shift();
    }
  }

  private forget(now: number) {
    const since = now - WINDOW_MS;
    while (this.arrivals.length > 0 && this.arrivals[0]!.at < since) this.arrivals.shift();
    while (this.frames.length > 0 && this.frames[0]!.at < since) this.frames.shift();
  }

  /** The H.264 stream's CODECS name (null until its sequence header, or for another codec). */
  videoCodecName(): string | null {
    return this.videoCodec === VIDEO_CODECS[FLV_H264] ? this.avcCodec : null;
  }

  reading(): IngestReading {
    const now = this.now();
    this.forget(now);
    const measuredMs = this.firstAt === null ? 0 : Math.min(WINDOW_MS, now - this.firstAt);
    const bytes = this.arrivals.reduce((sum, a) => sum + a.bytes, 0);
    const bitrateKbps = measuredMs >= 1000 ? Math.round((bytes * 8) / measuredMs) : null;
    const first = this.frames[0];
    const last = this.frames.at(-1);
    const spanMs = first && last ? last.dts - first.dts : 0;
    const framesPerSecond = spanMs > 0 ? Math.round(((this.frames.length - 1) * 1000 * 10) / spanMs) / 10 : null;
    const [previous, latest] = this.keyframes.slice(-2);
    const keyframeIntervalSeconds =
      previous !== undefined && latest !== undefined && latest > previous ? Math.round((latest - previous) / 100) / 10 : null;
    return {
      bitrateKbps,
      framesPerSecond,
      width: this.size?.width ?? null,
      height: this.size?.height ?? null,
      keyframeIntervalSeconds,
      videoCodec: this.videoCodec,
      audioCodec: this.audioCodec,
      measuredSeconds: Math.round(measuredMs / 100) / 10,
    };
  }
}
