/**
 * What each participant tells the others about their own microphone and camera, peer to peer: a small
 * JSON message on a data channel of every connection, sent when the channel opens and on every toggle.
 */

export interface PeerMedia {
  audio: boolean;
  video: boolean;
}

/** Until a participant says otherwise, their microphone and camera are taken to be on. */
export const MEDIA_ON: PeerMedia = { audio: true, video: true };

/** Negotiated (the same id on both sides): each side creates it, neither waits for the other's. */
export const PEER_MEDIA_CHANNEL = { label: 'media-state', id: 0 } as const;

export const encodePeerMedia = (media: PeerMedia): string => JSON.stringify({ audio: media.audio, video: media.video });

/** The state a message carries, or null for anything else (another version, a broken message). */
export function decodePeerMedia(data: unknown): PeerMedia | null {
  if (typeof data !== 'string' || data.length > 200) return null;
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { audio, video } = parsed as Record<string, unknown>;
    return typeof audio === 'boolean' && typeof video === 'boolean' ? { audio, video } : null;
  } catch {
    return null;
  }
}

export const samePeerMedia = (a: PeerMedia, b: PeerMedia): boolean => a.audio === b.audio && a.video === b.video;
