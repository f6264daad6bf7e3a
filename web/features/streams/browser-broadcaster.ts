/**
 * The page's one browser broadcast (decision 0082): the camera and microphone, the MediaRecorder and the
 * socket its chunks go over. It lives outside React, since the dashboard swaps its layout when the stream
 * goes on air and the broadcast must outlive that; the panel reads it with useSyncExternalStore.
 */
import { BROWSER_BROADCAST_TEXT, BROWSER_RECORDER_TIMESLICE_MS, browserBroadcastCloseText } from '../../../common/browser-broadcast';
import { broadcastSocketUrl, captureFailureText, deviceOptions, framesOfChunk, recordingType, type DeviceOption } from './browser-capture';

export type BroadcastPhase = 'off' | 'opening' | 'preview' | 'connecting' | 'live';

export interface BroadcasterState {
  phase: BroadcastPhase;
  media: MediaStream | null;
  cameras: DeviceOption[];
  microphones: DeviceOption[];
  cameraId: string;
  microphoneId: string;
  error: string | null;
}

/** Bytes the socket may hold unsent before the link is judged too slow for the picture. */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
const VIDEO = { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } };

export class BrowserBroadcaster {
  private state: BroadcasterState = { phase: 'off', media: null, cameras: [], microphones: [], cameraId: '', microphoneId: '', error: null };
  private readonly listeners = new Set<() => void>();
  private recorder: MediaRecorder | null = null;
  private socket: WebSocket | null = null;
  /** Chunks are sent in the order recorded, each after the one before was read. */
  private sending: Promise<void> = Promise.resolve();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = () => this.state;

  private set(change: Partial<BroadcasterState>) {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  /** Why this browser cannot broadcast at all, or null. */
  static unsupported(): string | null {
    const recorder = typeof MediaRecorder === 'undefined' ? undefined : MediaRecorder.isTypeSupported.bind(MediaRecorder);
    if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia || !recordingType(recorder)) return BROWSER_BROADCAST_TEXT.unsupported;
    return null;
  }

  /** Turns the chosen (or default) camera and microphone on for the preview; then lists the devices by name. */
  async openDevices(choice: { cameraId?: string; microphoneId?: string } = {}) {
    if (this.state.phase === 'connecting' || this.state.phase === 'live') return;
    const unsupported = BrowserBroadcaster.unsupported();
    if (unsupported) return this.set({ error: unsupported });
    this.set({ phase: 'opening', error: null });
    const cameraId = choice.cameraId ?? this.state.cameraId;
    const microphoneId = choice.microphoneId ?? this.state.microphoneId;
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        video: cameraId ? { ...VIDEO, deviceId: { exact: cameraId } } : VIDEO,
        audio: microphoneId ? { deviceId: { exact: microphoneId } } : true,
      });
      this.stopTracks();
      const { cameras, microphones } = deviceOptions(await navigator.mediaDevices.enumerateDevices());
      if (cameras.length === 0) throw Object.assign(new Error('no camera'), { name: 'NotFoundError' });
      this.set({
        phase: 'preview', media, cameras, microphones, error: null,
        cameraId: media.getVideoTracks()[0]?.getSettings().deviceId ?? cameraId,
        microphoneId: media.getAudioTracks()[0]?.getSettings().deviceId ?? microphoneId,
      });
    } catch (error) {
      this.set({ phase: this.state.media ? 'preview' : 'off', error: captureFailureText(error) });
    }
  }

  /** Opens the socket for the stream and records into it; the server publishes what arrives. */
  start(streamId: number, skin: string) {
    const media = this.state.media;
    const type = recordingType(typeof MediaRecorder === 'undefined' ? undefined : MediaRecorder.isTypeSupported.bind(MediaRecorder));
    if (!media || !type || this.state.phase !== 'preview') return;
    this.set({ phase: 'connecting', error: null });
    const socket = new WebSocket(broadcastSocketUrl(window.location, streamId, skin));
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      const recorder = new MediaRecorder(media, { mimeType: type, videoBitsPerSecond: 2_500_000, audioBitsPerSecond: 128_000 });
      this.recorder = recorder;
      recorder.ondataavailable = (event) => {
        if (event.data.size > 0) this.send(socket, event.data);
      };
      recorder.start(BROWSER_RECORDER_TIMESLICE_MS);
      this.set({ phase: 'live' });
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.stopRecording();
      const text = opened ? browserBroadcastCloseText(event.code) : BROWSER_BROADCAST_TEXT.refused;
      this.set({ phase: this.state.media ? 'preview' : 'off', error: text });
    };
  }

  private send(socket: WebSocket, chunk: Blob) {
    this.sending = this.sending.then(async () => {
      const bytes = await chunk.arrayBuffer();
      if (socket.readyState !== WebSocket.OPEN) return;
      for (const frame of framesOfChunk(bytes)) socket.send(frame);
      if (socket.bufferedAmount > MAX_UNSENT_BYTES) {
        this.stop();
        this.set({ error: BROWSER_BROADCAST_TEXT.slowLink });
      }
    });
  }

  /** Stops sending (the server ends the broadcast after the ingest's grace); the preview stays on. */
  stop() {
    const socket = this.socket;
    this.stopRecording();
    if (socket) {
      this.socket = null;
      // After the last chunk went out: the recorder hands over what it holds when stopped.
      void this.sending.then(() => socket.close(1000));
    }
    if (this.state.phase === 'connecting' || this.state.phase === 'live') this.set({ phase: this.state.media ? 'preview' : 'off' });
  }

  /** Stops everything and turns the camera off. */
  close() {
    this.stop();
    this.stopTracks();
    this.set({ phase: 'off', media: null });
  }

  private stopRecording() {
    if (this.recorder && this.recorder.state !== 'inactive') this.recorder.stop();
    this.recorder = null;
  }

  private stopTracks() {
    for (const track of this.state.media?.getTracks() ?? []) track.stop();
  }
}

/** The page's broadcaster: one camera, one broadcast. */
export const browserBroadcaster = new BrowserBroadcaster();
