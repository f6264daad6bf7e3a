import { describe, expect, it } from 'vitest';
import { sampleBlocked, sampleComment } from '../../../common/testing/realtime-samples';
import { asksForRating, canSave, interactionsPaused, serviceAction } from './stream-interactions';

describe('serviceAction', () => {
  it('ends the video on STREAM-END', () => {
    expect(serviceAction({ type: 'STREAM-END' }, null)).toEqual({ kind: 'stream-end' });
  });
  it('checks for a block only when the banned id is the viewer', () => {
    expect(serviceAction(sampleBlocked(1000007), 1000007)).toEqual({ kind: 'block-check' });
    expect(serviceAction(sampleBlocked(1000008), 1000007)).toBeNull();
    expect(serviceAction(sampleBlocked(1000007), null)).toBeNull();
  });
  it('leaves a subscriber whose plan lifts the pay wall alone on BLOCKED', () => {
    expect(serviceAction(sampleBlocked(1000007), 1000007, true)).toBeNull();
  });
  it('reads chat_enabled from STREAM-OPTIONS', () => {
    expect(serviceAction({ type: 'STREAM-OPTIONS', options: { chat_enabled: false } }, 1)).toEqual({ kind: 'chat-options', chatEnabled: false });
  });
  it('ignores chat lines', () => {
    expect(serviceAction(sampleComment('hi'), 1)).toBeNull();
  });
});

describe('asksForRating', () => {
  it('asks signed-in non-owners who have not rated', () => {
    expect(asksForRating({ is_owner: false, has_rated: false }, true)).toBe(true);
    expect(asksForRating({ is_owner: false, has_rated: false }, false)).toBe(false);
    expect(asksForRating({ is_owner: true, has_rated: false }, true)).toBe(false);
    expect(asksForRating({ is_owner: false, has_rated: true }, true)).toBe(false);
  });
});

describe('canSave and interactionsPaused', () => {
  it('hides the bookmark on own and private streams', () => {
    expect(canSave({ is_owner: false, audience: 'PUBLIC' })).toBe(true);
    expect(canSave({ is_owner: true, audience: 'PUBLIC' })).toBe(false);
    expect(canSave({ is_owner: false, audience: 'PRIVATE' })).toBe(false);
  });
  it('pauses interactions only on a live stream', () => {
    expect(interactionsPaused({ live: 'Y' }, true)).toBe(true);
    expect(interactionsPaused({ live: 'N' }, true)).toBe(false);
    expect(interactionsPaused({ live: 'Y' }, false)).toBe(false);
  });
});
