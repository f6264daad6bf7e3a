/** The chat's built-in emoji (spec part 1 §2: fuller set for full-access users, reduced set for minimal access). */
import type { SessionUser } from '../../../common/api/accounts';

/** Minimal access: logged out, or terms not accepted yet. */
export const REDUCED_EMOJI = ['😀', '😂', '😍', '😮', '😢', '👍', '👏', '🙌', '🔥', '❤️', '🎉', '💯'] as const;

export const FULL_EMOJI = [
  ...REDUCED_EMOJI,
  '😁', '😅', '🤣', '😊', '😇', '🙂', '😉', '😌', '😘', '🥰', '😋', '😜', '🤪', '😎', '🤩', '🥳',
  '🤔', '🤨', '😐', '🙄', '😏', '😬', '😴', '🤯', '😱', '😭', '😤', '😡', '🥺', '🤗', '🤭', '🫶',
  '👋', '🤙', '✌️', '🤞', '👌', '🤘', '💪', '🙏', '👀', '💋', '💖', '💜', '💙', '💚', '💛', '🧡',
  '⭐', '✨', '⚡', '🌈', '🌹', '🍀', '🎶', '🎵', '🎮', '🏆', '🥇', '🚀', '💎', '💰', '🪙', '🍿',
] as const;

/** Full access: logged in with the terms accepted. */
export function hasFullAccess(user: SessionUser | null): boolean {
  return !!user && user.terms_accepted;
}

export function emojiSetFor(user: SessionUser | null): readonly string[] {
  return hasFullAccess(user) ? FULL_EMOJI : REDUCED_EMOJI;
}

/** Puts `emoji` where the caret was (replacing a selection), keeping the text within `max` characters. */
export function insertAt(text: string, emoji: string, start: number, end: number, max: number): { text: string; caret: number } {
  const before = text.slice(0, start);
  const after = text.slice(end);
  if ([...before, ...after].length + [...emoji].length > max) return { text, caret: end };
  return { text: before + emoji + after, caret: start + emoji.length };
}
