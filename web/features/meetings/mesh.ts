/**
 * The built-in conference: one RTCPeerConnection per other paid participant (a mesh), negotiated with
 * the "perfect negotiation" pattern so either side may offer. Signals go out through `send` (the
 * realtime SIGNAL frame on the meeting channel) and come in through `receive` (from our user channel).
 * Each connection also carries a data channel on which both sides tell whether their microphone and
 * camera are on.
 */
import type { WebrtcSignal } from '../../../common/realtime';
import { ignoreOffer, isNewRemoteConnection, isPolite, meshChanges, offerCollides, waitsForOffer } from './negotiation';
import { decodePeerMedia, encodePeerMedia, MEDIA_ON, PEER_MEDIA_CHANNEL, samePeerMedia, type PeerMedia } from './peer-media';

/** A connection not up after this long is negotiated again with fresh ICE (a lost signal, a race on arrival). */
const STALLED_AFTER_MS = 4000;
/** How long the polite side of a new connection waits for the other side's offer before making its own. */
const OFFER_WAIT_MS = 1000;

interface Peer {
  pc: RTCPeerConnection;
  watchdog: ReturnType<typeof setInterval>;
  /** Watchdog ticks in a row that found the connection down. */
  stalledChecks: number;
  polite: boolean;
  makingOffer: boolean;
  ignoringOffer: boolean;
  /** The polite side's own first offer, held back while the other side's is on its way. */
  heldOffer: ReturnType<typeof setTimeout> | null;
  stream: MediaStream | null;
  channel: RTCDataChannel;
  /** Their microphone and camera, as they last told us. */
  media: PeerMedia;
}

export interface RemotePeer {
  stream: MediaStream | null;
  media: PeerMedia;
}

export interface MeshOptions {
  myId: number;
  iceServers: RTCIceServer[];
  send: (to: number, signal: WebrtcSignal) => Promise<void>;
  /** The other participants changed (one came or went, its first track arrived, it muted or unmuted). */
  onRemote: (peers: ReadonlyMap<number, RemotePeer>) => void;
}

export class MeetingMesh {
  private readonly peers = new Map<number, Peer>();
  private local: MediaStream | null = null;
  /** The video we send when it is not the camera's own track (the blurred canvas). */
  private outgoingVideo: MediaStreamTrack | null = null;
  private localMedia: PeerMedia = MEDIA_ON;
  private closed = false;
  private inbox: Promise<void> = Promise.resolve();

  constructor(private readonly options: MeshOptions) {}

  /** Our camera and microphone (or the blurred canvas for video); every connection sends them. */
  setLocalStream(stream: MediaStream): void {
    this.local = stream;
    for (const peer of this.peers.values()) this.addTracks(peer.pc);
  }

  /** Swaps the video we send (camera ↔ blurred canvas) without renegotiating. */
  async replaceVideoTrack(track: MediaStreamTrack): Promise<void> {
    this.outgoingVideo = track;
    await Promise.all(
      [...this.peers.values()].flatMap(({ pc }) => pc.getSenders().filter((s) => s.track?.kind === 'video').map((s) => s.replaceTrack(track))),
    );
  }

  /** Tells everyone whether our microphone and camera are on (and everyone who connects later). */
  setLocalMedia(media: PeerMedia): void {
    if (samePeerMedia(media, this.localMedia)) return;
    this.localMedia = media;
    for (const { channel } of this.peers.values()) this.tellMedia(channel);
  }

  /** Connects to `wanted` (the other paid participants present) and drops the others. */
  sync(wanted: readonly number[]): void {
    if (this.closed) return;
    const { add, drop } = meshChanges(this.peers.keys(), wanted);
    for (const id of drop) this.dropPeer(id);
    for (const id of add) this.peerFor(id);
    if (add.length > 0 || drop.length > 0) this.emit();
  }

  /** Signals are applied one after another, in the order they came: a candidate never overtakes its description. */
  receive(from: number, signal: WebrtcSignal): Promise<void> {
    this.inbox = this.inbox.then(() => this.apply(from, signal));
    return this.inbox;
  }

  private async apply(from: number, signal: WebrtcSignal): Promise<void> {
    if (this.closed || from === this.options.myId) return;
    if ('description' in signal && isNewRemoteConnection(this.peers.get(from)?.pc.remoteDescription?.sdp, signal.description.sdp)) {
      this.dropPeer(from);
    }
    const peer = this.peerFor(from);
    const { pc } = peer;
    try {
      if ('description' in signal) {
        const description = signal.description;
        const collides = description.type === 'offer' && offerCollides(peer.makingOffer, pc.signalingState);
        peer.ignoringOffer = ignoreOffer(peer.polite, collides);
        if (peer.ignoringOffer) return;
        await pc.setRemoteDescription(description);
        if (description.type === 'offer') {
          await pc.setLocalDescription();
          if (pc.localDescription) await this.signal(from, { description: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
        }
      } else {
        try {
          await pc.addIceCandidate(signal.candidate ?? undefined);
        } catch (error) {
          if (!peer.ignoringOffer) throw error;
        }
      }
    } catch (error) {
      console.warn('Meeting signal failed', error);
    }
  }

  /** After the realtime connection came back: restart ICE everywhere, which renegotiates. */
  renegotiate(): void {
    for (const { pc } of this.peers.values()) if (pc.signalingState !== 'closed') pc.restartIce();
  }

  close(): void {
    this.closed = true;
    for (const id of [...this.peers.keys()]) this.dropPeer(id);
    this.emit();
  }

  private peerFor(id: number): Peer {
    const existing = this.peers.get(id);
    if (existing) return existing;
    const pc = new RTCPeerConnection({ iceServers: this.options.iceServers });
    const polite = isPolite(this.options.myId, id);
    const watchdog = setInterval(() => this.unstall(id), STALLED_AFTER_MS);
    const channel = pc.createDataChannel(PEER_MEDIA_CHANNEL.label, { negotiated: true, id: PEER_MEDIA_CHANNEL.id });
    const peer: Peer = { pc, watchdog, stalledChecks: 0, polite, makingOffer: false, ignoringOffer: false, heldOffer: null, stream: null, channel, media: MEDIA_ON };
    this.peers.set(id, peer);
    pc.onnegotiationneeded = () => {
      if (waitsForOffer(polite, pc.remoteDescription !== null)) this.holdOffer(id, peer);
      else void this.offer(id, peer);
    };
    pc.onicecandidate = ({ candidate }) => {
      const init = candidate?.toJSON();
      void this.signal(id, { candidate: init?.candidate ? { candidate: init.candidate, sdpMid: init.sdpMid ?? null, sdpMLineIndex: init.sdpMLineIndex ?? null, usernameFragment: init.usernameFragment ?? null } : null });
    };
    pc.ontrack = ({ track, streams }) => {
      const stream = streams[0] ?? peer.stream ?? new MediaStream();
      if (!stream.getTracks().includes(track)) stream.addTrack(track);
      peer.stream = stream;
      this.emit();
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed') pc.restartIce();
    };
    channel.onopen = () => this.tellMedia(channel);
    channel.onmessage = ({ data }: MessageEvent<unknown>) => {
      const media = decodePeerMedia(data);
      if (!media || samePeerMedia(media, peer.media)) return;
      peer.media = media;
      this.emit();
    };
    this.addTracks(pc);
    this.emit();
    return peer;
  }

  private async offer(id: number, peer: Peer): Promise<void> {
    const { pc } = peer;
    try {
      peer.makingOffer = true;
      await pc.setLocalDescription();
      if (pc.localDescription) await this.signal(id, { description: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
    } catch (error) {
      console.warn('Meeting offer failed', error);
    } finally {
      peer.makingOffer = false;
    }
  }

  /**
   * Offers only if the other side's offer did not come meanwhile. When it came, the browser asks again
   * (negotiationneeded) once that exchange is over, if our side still has something to add.
   */
  private holdOffer(id: number, peer: Peer): void {
    if (peer.heldOffer) return;
    peer.heldOffer = setTimeout(() => {
      peer.heldOffer = null;
      if (peer.pc.remoteDescription === null && peer.pc.signalingState === 'stable') void this.offer(id, peer);
    }, OFFER_WAIT_MS);
  }

  private tellMedia(channel: RTCDataChannel): void {
    if (channel.readyState === 'open') channel.send(encodePeerMedia(this.localMedia));
  }

  /**
   * A connection still down at a watchdog tick: one that failed restarts ICE (a lost candidate, a changed
   * network); one whose ICE never started, or still down at the next tick, or whose offer is still
   * unanswered at the next tick (it went to a page that is gone), is replaced by a fresh connection,
   * whose offer the other side takes for a new one of ours.
   * Only the impolite side acts, so that the two never start over at once.
   */
  private unstall(id: number): void {
    const peer = this.peers.get(id);
    if (!peer || peer.polite) return;
    const { pc } = peer;
    const down = pc.connectionState === 'new' || pc.connectionState === 'failed' || pc.connectionState === 'disconnected';
    peer.stalledChecks = down ? peer.stalledChecks + 1 : 0;
    if (!down || (pc.signalingState !== 'stable' && peer.stalledChecks === 1)) return;
    // 'new' after a whole interval: ICE never started, and only a fresh connection starts it.
    if (peer.stalledChecks === 1 && pc.connectionState !== 'new') {
      pc.restartIce();
      return;
    }
    this.dropPeer(id);
    this.peerFor(id);
  }

  private addTracks(pc: RTCPeerConnection): void {
    if (!this.local) return;
    const sending = new Set(pc.getSenders().map((s) => s.track?.kind));
    for (const track of this.local.getTracks()) {
      const outgoing = track.kind === 'video' && this.outgoingVideo ? this.outgoingVideo : track;
      if (!sending.has(track.kind)) pc.addTrack(outgoing, this.local);
    }
  }

  private async signal(to: number, signal: WebrtcSignal): Promise<void> {
    try {
      await this.options.send(to, signal);
    } catch {
      // Offline: renegotiate() restarts ICE once the realtime connection is back.
    }
  }

  private dropPeer(id: number): void {
    const peer = this.peers.get(id);
    if (!peer) return;
    clearInterval(peer.watchdog);
    if (peer.heldOffer) clearTimeout(peer.heldOffer);
    peer.channel.onopen = null;
    peer.channel.onmessage = null;
    peer.pc.onnegotiationneeded = null;
    peer.pc.onicecandidate = null;
    peer.pc.ontrack = null;
    peer.pc.close();
    this.peers.delete(id);
  }

  private emit(): void {
    this.options.onRemote(new Map([...this.peers].map(([id, { stream, media }]) => [id, { stream, media }])));
  }
}
