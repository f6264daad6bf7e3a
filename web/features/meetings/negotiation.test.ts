import { describe, expect, it } from 'vitest';
import type { MeetingParticipant } from '../../../common/realtime';
import { ignoreOffer, isNewRemoteConnection, isPolite, meshChanges, offerCollides, peersToConnect, sdpFingerprint, waitsForOffer } from './negotiation';

const person = (user_id: number, paid: boolean, is_host = false): MeetingParticipant => ({ user_id, name: `u${user_id}`, avatar: null, is_host, paid });

describe('perfect negotiation', () => {
  it('makes exactly one side of a pair polite: the higher user id', () => {
    expect(isPolite(9, 4)).toBe(true);
    expect(isPolite(4, 9)).toBe(false);
  });
  it('ignores a colliding offer only on the impolite side', () => {
    expect(offerCollides(true, 'stable')).toBe(true);
    expect(offerCollides(false, 'have-local-offer')).toBe(true);
    expect(offerCollides(false, 'stable')).toBe(false);
    expect(ignoreOffer(false, true)).toBe(true);
    expect(ignoreOffer(true, true)).toBe(false);
    expect(ignoreOffer(false, false)).toBe(false);
  });
  it('lets only the impolite side offer a new connection, so the two first offers never cross', () => {
    expect(waitsForOffer(true, false)).toBe(true);
    expect(waitsForOffer(false, false)).toBe(false);
    expect(waitsForOffer(true, true)).toBe(false);
    expect(waitsForOffer(false, true)).toBe(false);
  });
});

describe('the mesh', () => {
  const room = [person(1, true, true), person(2, true), person(3, false), person(4, true)];
  it('connects a paid participant to every other paid one, never to the unpaid', () => {
    expect(peersToConnect(room, 2)).toEqual([1, 4]);
    expect(peersToConnect(room, 1)).toEqual([2, 4]);
  });
  it('connects an unpaid or absent caller to nobody', () => {
    expect(peersToConnect(room, 3)).toEqual([]);
    expect(peersToConnect(room, 99)).toEqual([]);
  });
  it('adds the newcomers and drops who left', () => {
    expect(meshChanges([1, 2], [2, 4])).toEqual({ add: [4], drop: [1] });
  });
});

describe('a participant who came back', () => {
  const sdp = (fingerprint: string) => `v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\na=ice-ufrag:abcd\r\na=fingerprint:sha-256 ${fingerprint}\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n`;
  it('reads the certificate fingerprint of a description', () => {
    expect(sdpFingerprint(sdp('AA:BB'))).toBe('sha-256 AA:BB');
    expect(sdpFingerprint('v=0\r\n')).toBeNull();
  });
  it('tells a new connection of the same person from a renegotiation of the current one', () => {
    expect(isNewRemoteConnection(undefined, sdp('AA:BB'))).toBe(false);
    expect(isNewRemoteConnection(sdp('AA:BB'), sdp('AA:BB'))).toBe(false);
    expect(isNewRemoteConnection(sdp('AA:BB'), sdp('CC:DD'))).toBe(true);
  });
});
