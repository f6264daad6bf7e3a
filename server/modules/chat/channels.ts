/** The realtime channels the chat module answers for. */
export type ChatChannel = { kind: 'stream'; streamId: number } | { kind: 'user'; userId: number };

const PATTERN = /^(stream|user):([1-9][0-9]{0,15})$/;

export function parseChannel(channel: string): ChatChannel | null {
  const match = PATTERN.exec(channel);
  if (!match) return null;
  const id = Number(match[2]);
  if (!Number.isSafeInteger(id)) return null;
  return match[1] === 'stream' ? { kind: 'stream', streamId: id } : { kind: 'user', userId: id };
}
