import { useEffect, useState } from 'react';
import { SEARCH_MIN_CHARS } from '../../../common/constants';

export const FOLLOWER_SEARCH_DELAY_MS = 500;

/**
 * The search a follower list applies for what was typed (spec part 2 §5): the trimmed text once it
 * has 3+ characters, no filter once emptied, and null (keep the current filter) in between.
 */
export function followerSearchTerm(text: string): string | null {
  const term = text.trim();
  if (term.length === 0) return '';
  return term.length >= SEARCH_MIN_CHARS ? term : null;
}

/** The applied search for a box's text, debounced. */
export function useFollowerSearch(text: string): string {
  const [applied, setApplied] = useState('');
  useEffect(() => {
    const term = followerSearchTerm(text);
    if (term === null) return;
    const timer = setTimeout(() => setApplied(term), FOLLOWER_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return applied;
}
