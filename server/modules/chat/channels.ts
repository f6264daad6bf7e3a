/** The realtime channels the chat module answers for (a meeting's rules are the meetings module's, handed over). */
export type ChatChannel =
  | { kind: 'stream'; streamId: number; priority: boolean }
  | { kind: 'user'; userId: number }
  | { kind: 'meeting'; meetingId: number };

const PATTERN = /^(stream|user|meeting):([1-9][0-9]{0,15})(:priority)?$/;

export function parseChannel(channel: string): ChatChannel | null {
  const match = PATTERN.exec(channel);
  if (!match) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  if (match[1] === 'stream') return { kind: 'stream', streamId: id, priority: match[3] !== undefined };
  if (match[3] !== undefined) return null;
  return match[1] === 'user' ? { kind: 'user', userId: id } : { kind: 'meeting', meetingId: id };
}
