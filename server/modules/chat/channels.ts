/** The realtime channels the chat module answers for. */
export type ChatChannel =
  | { kind: 'stream'; streamId: number; priority: boolean }
  | { kind: 'user'; userId: number };

const PATTERN = /^(stream|user):([1-9][0-9]{0,15})(:priority)?$/;

export function parseChannel(channel: string): ChatChannel | null {
  const match = PATTERN.exec(channel);
  if (!match) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  if (match[1] === 'stream') return { kind: 'stream', streamId: id, priority: match[3] !== undefined };
  return match[3] === undefined ? { kind: 'user', userId: id } : null;
}
