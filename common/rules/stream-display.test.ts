import { describe, expect, it } from 'vitest';
import { shownLikes, shownTitle, shownViewers } from './stream-display';

describe('stream numbers and title on screen', () => {
  it('shows live viewers minus 2, never below 0', () => {
    expect([0, 1, 2, 3, 10].map(shownViewers)).toEqual([0, 0, 0, 1, 8]);
  });

  it('adds realtime likes to the saved ones', () => {
    expect(shownLikes({ likes: 7, rlikes: 5 })).toBe(12);
  });

  it('hides the #live tag wherever it sits, and nothing else', () => {
    expect(shownTitle('Cooking night #live')).toBe('Cooking night');
    expect(shownTitle('Already #live here')).toBe('Already here');
    expect(shownTitle('#LIVE music')).toBe('music');
    expect(shownTitle('The #lively crowd #live')).toBe('The #lively crowd');
    expect(shownTitle('#live')).toBe('#live');
  });
});
