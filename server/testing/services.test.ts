import { describe, expect, it } from 'vitest';
import { freePort } from './redis-server';
import { absentServices, describeAbsence, mustRunEverything } from './services';

describe('services a run needs', () => {
  it('names what is not set, and what is set but does not answer, with where it was asked', async () => {
    expect(await absentServices(['postgres', 'redis'], {})).toEqual({ postgres: 'TEST_DATABASE_URL is not set', redis: 'TEST_REDIS_URL is not set' });
    const port = await freePort();
    const absent = await absentServices(['postgres', 'redis'], {
      TEST_DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`,
      TEST_REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    expect(absent).toEqual({
      postgres: `not reachable at 127.0.0.1:${port} (ECONNREFUSED)`,
      redis: `not reachable at 127.0.0.1:${port} (ECONNREFUSED)`,
    });
    expect(describeAbsence(absent, ['redis'])).toBe(`Redis: not reachable at 127.0.0.1:${port} (ECONNREFUSED)`);
  });

  it('lists an ffmpeg that is not there', async () => {
    expect(await absentServices(['ffmpeg'], { FFMPEG_PATH: '/nowhere/ffmpeg' })).toEqual({ ffmpeg: '/nowhere/ffmpeg not found' });
  });

  it('fails rather than skips under CI=true only', () => {
    expect([mustRunEverything({ CI: 'true' }), mustRunEverything({ CI: '1' }), mustRunEverything({}), mustRunEverything({ CI: 'false' })]).toEqual([true, true, false, false]);
  });
});
