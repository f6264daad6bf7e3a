import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { parseMaster } from './hls-playlist';
import { liveMasterPlaylist, liveVariants, parseLiveRenditions } from './live-renditions';
import { remuxerArgs } from './remuxer';

/** The values that follow each occurrence of `flag`. */
const valuesOf = (args: string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));

describe('LIVE_RENDITIONS', () => {
  it('reads a list in any order and case, highest first; empty or the source alone is one copied rendition', () => {
    expect(parseLiveRenditions(undefined)).toEqual([]);
    expect(parseLiveRenditions(' ')).toEqual([]);
    expect(parseLiveRenditions('source')).toEqual([]);
    expect(parseLiveRenditions('360p, SOURCE,720p ,480p')).toEqual(['source', '720p', '480p', '360p']);
    expect(parseLiveRenditions('480p,240p')).toEqual(['480p', '240p']);
  });

  it('refuses an unknown or repeated rendition at start, naming the setting and the choices', () => {
    expect(() => loadConfig({ LIVE_RENDITIONS: 'source,4k' })).toThrow(/LIVE_RENDITIONS: "4k" is not a rendition \(choose from source, 1080p, 720p, 480p, 360p, 240p\)/);
    expect(() => loadConfig({ LIVE_RENDITIONS: '480p,480p' })).toThrow(/LIVE_RENDITIONS: a rendition is named twice/);
    expect(() => loadConfig({ LIVE_RENDITIONS: '720' })).toThrow(/LIVE_RENDITIONS/);
    expect(loadConfig({ LIVE_RENDITIONS: 'source,480p' }).liveRenditions).toEqual(['source', '480p']);
    expect(loadConfig({}).liveRenditions).toEqual([]);
  });
});

describe('the live variants of a source', () => {
  it('never upscales, and leaves out a rendition as tall as the offered source', () => {
    const ladder = liveVariants(['source', '720p', '480p', '360p'], { width: 1280, height: 720 });
    expect(ladder.map((v) => [v.name, v.width, v.height])).toEqual([['source', 1280, 720], ['480p', 852, 480], ['360p', 640, 360]]);
    expect(ladder[0]!.encode).toBeUndefined();
    expect(ladder[1]!.encode).toEqual({ profile: 'main', level: 31, videoKbps: 1500 });
    expect(liveVariants(['1080p', '720p'], { width: 1920, height: 1080 }).map((v) => v.name)).toEqual(['1080p', '720p']);
    // Nothing below a small source: it is copied.
    expect(liveVariants(['720p', '480p'], { width: 640, height: 360 }).map((v) => v.name)).toEqual(['source']);
  });

  it('continues exactly the variants a broadcast began with', () => {
    expect(liveVariants(['source', '360p'], { width: 640, height: 360 }, ['source', '480p']).map((v) => [v.name, v.width])).toEqual([['source', 640], ['480p', 852]]);
  });
});

describe('the remuxer ffmpeg arguments', () => {
  it('copies into the broadcast folder when there are no renditions', () => {
    const args = remuxerArgs('rtmp://in', { dir: '/live/b', append: false });
    expect(args.join(' ')).toContain('-map 0:v? -map 0:a? -c copy -f hls -hls_time 1');
    expect(args.at(-1)).toBe('/live/b/index.m3u8');
    expect(args).not.toContain('-filter_complex');
  });

  it('decodes once and writes the copied source and each scaled rendition in its own folder, keyframes every second', () => {
    const variants = liveVariants(['source', '480p', '360p'], { width: 1280, height: 720 });
    const args = remuxerArgs('rtmp://in', { dir: '/live/b', append: true, variants });
    expect(valuesOf(args, '-i')).toEqual(['rtmp://in']);
    expect(valuesOf(args, '-filter_complex')).toEqual(['[0:v]split=2[in0][in1];[in0]scale=852:480,setsar=1,format=yuv420p[out0];[in1]scale=640:360,setsar=1,format=yuv420p[out1]']);
    expect(args.filter((a) => a.endsWith('.m3u8'))).toEqual(['/live/b/source/index.m3u8', '/live/b/480p/index.m3u8', '/live/b/360p/index.m3u8']);
    expect(valuesOf(args, '-hls_segment_filename')).toEqual(['/live/b/source/seg_%05d.ts', '/live/b/480p/seg_%05d.ts', '/live/b/360p/seg_%05d.ts']);
    expect(valuesOf(args, '-hls_time')).toEqual(['1', '1', '1']);
    expect(valuesOf(args, '-hls_flags')).toEqual(Array(3).fill('append_list+omit_endlist+independent_segments+program_date_time'));
    expect(valuesOf(args, '-force_key_frames')).toEqual(['expr:gte(t,n_forced*1)', 'expr:gte(t,n_forced*1)']);
    expect(valuesOf(args, '-maxrate:v')).toEqual(['1500k', '1000k']);
    expect(valuesOf(args, '-level:v')).toEqual(['3.1', '3.1']);
    expect(valuesOf(args, '-c:a')).toEqual(['copy', 'copy']);
    expect(valuesOf(args, '-map')).toEqual(['0:v?', '0:a?', '[out0]', '0:a?', '[out1]', '0:a?']);
  });
});

describe('the live master playlist', () => {
  it('lists each variant with its rate, size and codecs', () => {
    const variants = liveVariants(['source', '480p'], { width: 1280, height: 720 });
    const text = liveMasterPlaylist(variants, { bitrateKbps: 2500, videoCodec: 'avc1.64001f', aac: true, hasAudio: true }, 6);
    expect(text).toBe([
      '#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=2750000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"', 'source/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=1826000,RESOLUTION=852x480,CODECS="avc1.4d401f,mp4a.40.2"', '480p/index.m3u8', '',
    ].join('\n'));
    expect(parseMaster(text)).toEqual(['source', '480p']);
    // A sound codec that cannot be named: no CODECS rather than a wrong one; no sound: video alone.
    expect(liveMasterPlaylist(variants, { bitrateKbps: null, videoCodec: null, aac: false, hasAudio: true }, 3)).not.toContain('CODECS');
    expect(liveMasterPlaylist(variants, { bitrateKbps: 900, videoCodec: 'avc1.42c01e', aac: false, hasAudio: false }, 3)).toContain('BANDWIDTH=990000,RESOLUTION=1280x720,CODECS="avc1.42c01e"');
  });
});
