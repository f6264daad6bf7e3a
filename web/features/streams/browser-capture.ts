/**
 * What the broadcaster panel decides without a camera (decision 0082): the recording format, what a
 * capture failure says, the devices offered, the socket's address and how a recorded chunk is cut.
 */
import { BROWSER_BROADCAST_PATH, BROWSER_BROADCAST_TEXT, BROWSER_MEDIA_FRAME_MAX_BYTES } from '../../../common/browser-broadcast';

/** Formats in the order we prefer them: VP8 is decoded cheapest by the server's ffmpeg; MP4 is Safari's. */
export const RECORDING_TYPES = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm;codecs=h264,opus', 'video/webm', 'video/mp4'] as const;

/** The first format this browser's MediaRecorder records; null when it records none (or has no MediaRecorder). */
export function recordingType(isTypeSupported: ((type: string) => boolean) | undefined): string | null {
  if (!isTypeSupported) return null;
  return RECORDING_TYPES.find((type) => isTypeSupported(type)) ?? null;
}

/** What the page says when getUserMedia fails, by the DOMException's name. */
export function captureFailureText(error: unknown): string {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String((error as { name: unknown }).name) : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return BROWSER_BROADCAST_TEXT.permissionDenied;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return BROWSER_BROADCAST_TEXT.noDevices;
  if (name === 'TypeError' && typeof navigator !== 'undefined' && !navigator.mediaDevices) return BROWSER_BROADCAST_TEXT.unsupported;
  const reason = error instanceof Error ? error.message : String(error);
  return BROWSER_BROADCAST_TEXT.captureFailed.replace('{reason}', reason || name || 'unknown error');
}

export interface DeviceOption {
  value: string;
  label: string;
}

/** The cameras and microphones to offer, each named (a device without a label before permission gets a numbered one). */
export function deviceOptions(devices: readonly Pick<MediaDeviceInfo, 'deviceId' | 'kind' | 'label'>[]) {
  const of = (kind: MediaDeviceKind, noun: string): DeviceOption[] =>
    devices.filter((d) => d.kind === kind && d.deviceId !== '').map((d, i) => ({ value: d.deviceId, label: d.label || `${noun} ${i + 1}` }));
  return { cameras: of('videoinput', 'Camera'), microphones: of('audioinput', 'Microphone') };
}

/** ws(s)://<this host>/api/streams/broadcast-from-browser?id=…&service=<skin>. */
export function broadcastSocketUrl(location: Pick<Location, 'protocol' | 'host'>, streamId: number, skin: string): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${BROWSER_BROADCAST_PATH}?id=${streamId}&service=${encodeURIComponent(skin)}`;
}

/** A recorded chunk cut into frames the server takes. */
export function framesOfChunk(chunk: ArrayBuffer, max = BROWSER_MEDIA_FRAME_MAX_BYTES): ArrayBuffer[] {
  const frames: ArrayBuffer[] = [];
  for (let at = 0; at < chunk.byteLength; at += max) frames.push(chunk.slice(at, at + max));
  return frames;
}
