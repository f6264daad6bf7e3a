import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSkinPath } from '../../app/skin';

/** A preview plays this long (spec part 1 §2 Stream view, preview mode). */
export const PREVIEW_SECONDS = 60;

/** Counts the preview down, then leaves: back to the referring page of this site, else to log in. */
export function usePreviewCountdown(active: boolean, streamPath: string): number {
  const [left, setLeft] = useState(PREVIEW_SECONDS);
  const navigate = useNavigate();
  const skinPath = useSkinPath();
  useEffect(() => {
    if (!active) return;
    const tick = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(tick);
  }, [active]);
  useEffect(() => {
    if (!active || left > 0) return;
    const referrer = document.referrer ? new URL(document.referrer) : null;
    if (referrer && referrer.origin === window.location.origin && referrer.pathname !== window.location.pathname) {
      void navigate(referrer.pathname + referrer.search);
    } else {
      void navigate(`${skinPath('/user/login')}?redirect=${encodeURIComponent(streamPath)}`);
    }
  }, [active, left, navigate, skinPath, streamPath]);
  return left;
}
