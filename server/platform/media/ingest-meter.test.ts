import { describe, expect, it } from 'vitest';
import { IngestMeter, type MediaPacket } from './ingest-meter';

const video = (dts: number, key: boolean, bytes = 1000): MediaPacket => ({ codec_type: 9, codec_id: 7, flags: key ? 3 : 4, dts, data: Buffer.alloc(bytes) });
const audio = (dts: number): MediaPacket => ({ codec_type: 8, codec_id: 10, flags: 1, dts, data: Buffer.alloc(250) });

describe('ingest meter', () => {
  it('measures frame rate and keyframe interval on the encoder clock, bitrate on arrival', () => {
    let now = 0;
    const meter = new IngestMeter(() => now);
    expect(meter.reading()).toMatchObject({ bitrateKbps: null, framesPerSecond: null, keyframeIntervalSeconds: null });
    // 6 s at 25 fps, a keyframe every 75 frames (3 s), 1000 bytes a frame and 250 bytes of audio every 40 ms.
    for (let frame = 0; frame < 150; frame++) {
      now = frame * 40;
      meter.observe(video(frame * 40, frame % 75 === 0));
      meter.observe(audio(frame * 40));
    }
    const reading = meter.reading();
    expect(reading.framesPerSecond).toBe(25);
    expect(reading.keyframeIntervalSeconds).toBe(3);
    // (1000 + 250) bytes × 25 a second = 250 kb/s
    expect(reading.bitrateKbps).toBeGreaterThanOrEqual(245);
    expect(reading.bitrateKbps).toBeLessThanOrEqual(255);
    expect(reading).toMatchObject({ videoCodec: 'H.264', audioCodec: 'AAC', measuredSeconds: 5 });
  });

  it('counts each packet’s own size, not the longer buffer the RTMP parser reuses', () => {
    let now = 0;
    const meter = new IngestMeter(() => now);
    // 2000-byte frames at 25 fps (400 kb/s) handed in a 5000-byte buffer, as node-media-server does.
    for (let frame = 0; frame < 150; frame++) meter.observe({ ...video((now = frame * 40), frame % 25 === 0, 5000), size: 2000 });
    const { bitrateKbps } = meter.reading();
    expect(bitrateKbps).toBeGreaterThanOrEqual(390);
    expect(bitrateKbps).toBeLessThanOrEqual(410);
  });

  it('lets the bitrate fall when the encoder stalls', () => {
    let now = 0;
    const meter = new IngestMeter(() => now);
    for (let frame = 0; frame < 100; frame++) meter.observe(video((now = frame * 33), frame % 30 === 0));
    now += 10_000;
    expect(meter.reading()).toMatchObject({ bitrateKbps: 0, framesPerSecond: null, keyframeIntervalSeconds: 1 });
  });
});
