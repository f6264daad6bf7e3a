/** Side bar visibility: hidden by itself below 1024 px; a wide-screen show/hide choice is kept in localStorage. */
import { useCallback, useState, useSyncExternalStore } from 'react';
import { SIDEBAR_AUTO_HIDE_WIDTH } from '../../../common/constants';

const STORAGE_KEY = 'limelight.sidebar';
const NARROW_QUERY = `(max-width: ${SIDEBAR_AUTO_HIDE_WIDTH - 0.02}px)`;

function subscribeNarrow(onChange: () => void): () => void {
  const media = window.matchMedia(NARROW_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

const isNarrowNow = () => window.matchMedia(NARROW_QUERY).matches;

function readChoice(): boolean | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'shown' ? true : value === 'hidden' ? false : null;
  } catch {
    return null;
  }
}

export interface SidebarState {
  /** Below the auto-hide width the side bar opens as a drawer over the page. */
  narrow: boolean;
  visible: boolean;
  toggle(): void;
  /** Closes the drawer (narrow screens only; a wide-screen choice stays). */
  closeDrawer(): void;
}

export function useSidebarState(): SidebarState {
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrowNow, () => false);
  const [choice, setChoice] = useState<boolean | null>(readChoice);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const visible = narrow ? drawerOpen : (choice ?? true);

  const toggle = useCallback(() => {
    if (narrow) {
      setDrawerOpen((open) => !open);
      return;
    }
    const next = !visible;
    setChoice(next);
    try {
      localStorage.setItem(STORAGE_KEY, next ? 'shown' : 'hidden');
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }, [narrow, visible]);

  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  return { narrow, visible, toggle, closeDrawer };
}
