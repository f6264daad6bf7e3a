/**
 * Scroll positions as a browser keeps them for ordinary pages: a new page opens at the top (or at its
 * #anchor), Back and Forward return to where the reader was, also after a reload of the tab.
 */
import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const STORAGE_KEY = 'limelight.scroll';

function saved(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

const positions: Record<string, number> = saved();

export function useScrollRestoration(): void {
  const { key, hash } = useLocation();
  const navigation = useNavigationType();

  useEffect(() => {
    // The app restores, not the browser (which would jump before the page has rendered).
    window.history.scrollRestoration = 'manual';
    const keep = () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions));
      } catch {
        // Storage full or disabled: positions last as long as the tab's page.
      }
    };
    window.addEventListener('pagehide', keep);
    return () => window.removeEventListener('pagehide', keep);
  }, []);

  useEffect(() => {
    const track = () => (positions[key] = window.scrollY);
    window.addEventListener('scroll', track, { passive: true });
    return () => window.removeEventListener('scroll', track);
  }, [key]);

  useLayoutEffect(() => {
    if (navigation === 'POP' && positions[key] !== undefined) window.scrollTo(0, positions[key]);
    else if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    else if (navigation !== 'POP') window.scrollTo(0, 0);
  }, [key, hash, navigation]);
}
