/**
 * The camera and microphone of the built-in conference: asked once, with the toolbar's toggles (each
 * locked 5 s after use) and the background blur (background-blur.ts), whose canvas track replaces the
 * camera track on every connection (RTCRtpSender.replaceTrack).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MEETING } from '../../../common/constants';

export { startBlur } from './background-blur';

/** Video capped at 720 lines (spec part 2 §9). */
const CONSTRAINTS: MediaStreamConstraints = { audio: true, video: { height: { ideal: 720, max: 720 }, frameRate: { ideal: 24 } } };

export type MediaState = { state: 'asking' } | { state: 'ready'; stream: MediaStream } | { state: 'denied'; message: string };

export function conferenceSupported(): boolean {
  return typeof RTCPeerConnection !== 'undefined' && typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
}

export function useLocalMedia(enabled: boolean) {
  const [media, setMedia] = useState<MediaState>({ state: 'asking' });
  useEffect(() => {
    if (!enabled) return;
    let stream: MediaStream | null = null;
    let gone = false;
    navigator.mediaDevices.getUserMedia(CONSTRAINTS).then(
      (got) => {
        if (gone) return got.getTracks().forEach((t) => t.stop());
        stream = got;
        setMedia({ state: 'ready', stream: got });
      },
      (error: unknown) => !gone && setMedia({ state: 'denied', message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
    );
    return () => {
      gone = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [enabled]);
  return media;
}

/** A toggle with a processing state, locked for 5 s after each use (spec part 2 §4). */
export function useLockedToggle(apply: (on: boolean) => void, initial = true) {
  const [on, setOn] = useState(initial);
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const toggle = useCallback(() => {
    if (locked) return;
    const next = !on;
    apply(next);
    setOn(next);
    setLocked(true);
    timer.current = setTimeout(() => setLocked(false), MEETING.toggleLockMs);
  }, [apply, locked, on]);
  return { on, locked, toggle };
}
