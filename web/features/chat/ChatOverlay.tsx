/** Over the video: the last 4 chat lines, 5 s each, and a floating heart for every like (portal into the player's slot). */
import { useCallback, useState, useSyncExternalStore } from 'react';
import type { CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { useLater } from '../../ui/use-later';
import { Avatar } from '../../ui/Avatar';
import { OVERLAY_LINES, OVERLAY_LINE_MS } from './chat-lines';
import type { ChatLine } from './chat-lines';
import styles from './ChatOverlay.module.css';
import { SolidHeart } from '../../ui/icons';

const HEART_MS = 2_400;
/** More likes at once than this float as one burst, not a storm. */
const MAX_HEARTS = 24;

interface Heart {
  id: number;
  /** Horizontal drift and size, so a burst does not look like one heart. */
  drift: number;
  scale: number;
  hue: number;
}

let heartIds = 0;

/** The overlay's state; ChatPanel feeds it lines and likes as they arrive. */
export function useOverlayFeed() {
  const [lines, setLines] = useState<ChatLine[]>([]);
  const [hearts, setHearts] = useState<Heart[]>([]);

  const later = useLater();

  const addLine = useCallback(
    (line: ChatLine) => {
      setLines((current) => [...current, line].slice(-OVERLAY_LINES));
      later(() => setLines((current) => current.filter((l) => l.key !== line.key)), OVERLAY_LINE_MS);
    },
    [later],
  );

  const addHearts = useCallback(
    (count: number) => {
      const added: Heart[] = Array.from({ length: Math.min(Math.max(1, count), 5) }, () => ({
        id: ++heartIds,
        drift: Math.round((Math.random() - 0.5) * 60),
        scale: 0.8 + Math.random() * 0.5,
        hue: Math.round(Math.random() * 40) - 20,
      }));
      setHearts((current) => [...current, ...added].slice(-MAX_HEARTS));
      const ids = new Set(added.map((h) => h.id));
      later(() => setHearts((current) => current.filter((h) => !ids.has(h.id))), HEART_MS);
    },
    [later],
  );

  return { lines, hearts, addLine, addHearts };
}

function subscribeToDom(notify: () => void): () => void {
  const observer = new MutationObserver(notify);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/** The element with `id`, followed as the page mounts and unmounts it (the player remounts on a new source). */
function useElementById(id: string): HTMLElement | null {
  return useSyncExternalStore(
    subscribeToDom,
    () => document.getElementById(id),
    () => null,
  );
}

export function ChatOverlay({ slotId, lines, hearts }: { slotId: string; lines: readonly ChatLine[]; hearts: readonly Heart[] }) {
  const slot = useElementById(slotId);
  if (!slot) return null;
  return createPortal(
    <div className={styles.overlay} aria-hidden="true">
      <ul className={styles.lines}>
        {lines.map((line) => (
          <li key={line.key} className={`${styles.line} ${line.kind === 'tip' ? styles.tip : ''}`}>
            <Avatar name={line.name} src={line.avatar} size={22} />
            <span className={styles.text}>
              <strong className={styles.name}>{line.name}</strong> {line.text}
              {line.request && ` · ${line.request}`}
            </span>
          </li>
        ))}
      </ul>
      <div className={styles.hearts}>
        {hearts.map((heart) => (
          <span
            key={heart.id}
            className={styles.heart}
            style={{ '--drift': `${heart.drift}px`, '--scale': heart.scale, '--hue': `${heart.hue}deg` } as CSSProperties}
          >
            <SolidHeart />
          </span>
        ))}
      </div>
    </div>,
    slot,
  );
}
