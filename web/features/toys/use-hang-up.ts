/**
 * Leaving the room hangs up on the device access (spec part 2 §4): the server declines a viewer's open
 * access (and tells the broadcaster), or revokes every open access of a host's meeting. The room's
 * Hang up leaves the page, so leaving is what sends it; nothing is sent while no access is open.
 */
import { useEffect, useRef } from 'react';
import { sendToyOperation } from './api';
import type { ToyPlace } from './toy-rules';

export function useHangUpOnLeave(place: ToyPlace, type: 'lovense-viewer-end-call' | 'lovense-host-end-call', open: boolean) {
  const openRef = useRef(open);
  const leaving = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    openRef.current = open;
  }, [open]);
  const { stream_id, room } = place;
  useEffect(() => {
    // A remount at once (React's development check) is not a leave: it cancels the send.
    if (leaving.current) clearTimeout(leaving.current);
    leaving.current = null;
    return () => {
      if (!openRef.current) return;
      leaving.current = setTimeout(() => void sendToyOperation({ stream_id, room }, { type }).catch(() => undefined), 0);
    };
  }, [stream_id, room, type]);
}
