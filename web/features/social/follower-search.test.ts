import { describe, expect, it } from 'vitest';
import { followerSearchTerm } from './follower-search';

describe('follower search', () => {
  it('applies from three characters, trimmed', () => {
    expect(followerSearchTerm('  ann ')).toBe('ann');
  });

  it('clears the filter when the box is emptied', () => {
    expect(followerSearchTerm('   ')).toBe('');
  });

  it('keeps the current filter for one or two characters', () => {
    expect(followerSearchTerm('an')).toBeNull();
  });
});
