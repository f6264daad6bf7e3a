import { useEffect, useEffectEvent, useRef } from 'react';

/** Loads more when the end of a list comes within 100 px of view (spec part 2 §8), at most once a second. */
export const NEAR_BOTTOM_PX = 100;
export const LOAD_THROTTLE_MS = 1000;

export function useInfiniteScroll(loadMore: () => void, enabled: boolean) {
  const sentinel = useRef<HTMLDivElement | null>(null);
  const last = useRef(0);
  const load = useEffectEvent(() => loadMore());
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !enabled) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        const now = Date.now();
        if (now - last.current < LOAD_THROTTLE_MS) return;
        last.current = now;
        load();
      },
      { rootMargin: `0px 0px ${NEAR_BOTTOM_PX}px 0px` },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled]);
  return sentinel;
}
