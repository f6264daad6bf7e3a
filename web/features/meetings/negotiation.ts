/**
 * The built-in conference's decisions (a WebRTC mesh with "perfect negotiation"): who is polite, whom
 * to connect to, and whether an incoming offer collides with ours.
 */
import type { MeetingParticipant } from '../../../common/realtime';

/** Of two peers, the one with the higher user id is polite: it rolls back its own offer on a collision. */
export const isPolite = (myId: number, otherId: number): boolean => myId > otherId;

/**
 * The participants to exchange media with: every other present participant who paid (the host always
 * counts as paid). An unpaid caller connects to nobody: the server refuses their signals anyway.
 */
export function peersToConnect(participants: readonly MeetingParticipant[], myId: number): number[] {
  const me = participants.find((p) => p.user_id === myId);
  if (!me?.paid) return [];
  return participants.filter((p) => p.user_id !== myId && p.paid).map((p) => p.user_id).sort((a, b) => a - b);
}

/** An offer arriving while we are making one (or are not stable) collides; the impolite side ignores it. */
export function offerCollides(makingOffer: boolean, signalingState: RTCSignalingState): boolean {
  return makingOffer || signalingState !== 'stable';
}

export function ignoreOffer(polite: boolean, collides: boolean): boolean {
  return !polite && collides;
}

/**
 * Whether our offer waits for the other side's. Both sides of a new pair learn of each other from the
 * same PARTICIPANTS frame; were both to offer, the polite one would roll its offer back, and chromium
 * sometimes never gathers ICE candidates for the answer that follows a rollback made while its offer's
 * gathering was starting: both connections stable, ICE never started (decision 0019). So on a
 * connection not yet negotiated the impolite side offers and the polite one answers; the polite one
 * offers first only if no offer came in a while (the other side did not notice us come back).
 */
export function waitsForOffer(polite: boolean, negotiatedBefore: boolean): boolean {
  return polite && !negotiatedBefore;
}

/** Who to add and who to drop when the participant list changes. */
export function meshChanges(current: Iterable<number>, wanted: readonly number[]): { add: number[]; drop: number[] } {
  const have = new Set(current);
  const want = new Set(wanted);
  return { add: wanted.filter((id) => !have.has(id)), drop: [...have].filter((id) => !want.has(id)) };
}

/** The DTLS certificate fingerprint a session description names (every RTCPeerConnection has its own). */
export function sdpFingerprint(sdp: string): string | null {
  return /^a=fingerprint:(.+)$/m.exec(sdp)?.[1]?.trim() ?? null;
}

/**
 * Whether a description comes from another connection of the same person than the one we talk to: they
 * left and came back (a reload, a second join) before we heard they had gone. Such a description cannot
 * renegotiate the old connection (its certificate differs); the old connection is replaced.
 */
export function isNewRemoteConnection(current: string | undefined, incoming: string): boolean {
  if (!current) return false;
  const before = sdpFingerprint(current);
  const after = sdpFingerprint(incoming);
  return before !== null && after !== null && before !== after;
}
