/**
 * A post's images, one per page (spec part 1 §2 Post view): previous and next, dots, arrow keys and
 * swipes, wrapping past either end. Image addresses are signed and short-lived: an image that fails
 * to load makes the page look the post up again (once) for fresh addresses, then is tried once more
 * after a pause; one that still fails says so, with Try again.
 */
import { useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import type { PostMedia } from '../../../common/api/posts';
import { Button } from '../../ui/Button';
import { ImageIcon, RefreshIcon } from '../../ui/icons';
import { useLater } from '../../ui/use-later';
import { wrapIndex } from './post-rules';
import styles from './ImageCarousel.module.css';

/** A horizontal move longer than this is a swipe. */
const SWIPE_PX = 40;
/** The wait before an image that failed with fresh addresses is tried once more. */
const RETRY_AFTER_MS = 3000;

interface ImageCarouselProps {
  title: string;
  media: PostMedia[];
  /** An image did not load (its address expired, 403): fetch the post again for new addresses. */
  onExpired: () => Promise<unknown>;
}

export function ImageCarousel({ title, media, onExpired }: ImageCarouselProps) {
  const [index, setIndex] = useState(0);
  // Per image: how many times it was loaded again, and whether it is given up.
  const [reloads, setReloads] = useState<Readonly<Record<number, number>>>({});
  const [broken, setBroken] = useState<ReadonlySet<number>>(new Set());
  const refreshed = useRef(false);
  const later = useLater();
  const start = useRef<{ x: number; y: number } | null>(null);
  const count = media.length;
  // Every page in the first image's frame (held between portrait 4:5 and 16:9), so turning a page never moves what is below.
  const first = media[0];
  const ratio = first?.width && first.height ? Math.min(16 / 9, Math.max(4 / 5, first.width / first.height)) : 4 / 3;
  const at = wrapIndex(index, count);
  const go = (to: number) => setIndex(wrapIndex(to, count));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') go(at - 1);
    else if (event.key === 'ArrowRight') go(at + 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(count - 1);
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent) => {
    start.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent) => {
    const from = start.current;
    start.current = null;
    if (!from) return;
    const dx = event.clientX - from.x;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(event.clientY - from.y)) go(dx < 0 ? at + 1 : at - 1);
  };
  const reload = (id: number) => setReloads((r) => ({ ...r, [id]: (r[id] ?? 0) + 1 }));
  const onError = (id: number) => {
    const tries = reloads[id] ?? 0;
    if (tries === 0 && !refreshed.current) {
      refreshed.current = true;
      void onExpired().finally(() => reload(id));
    } else if (tries <= 1) {
      later(() => reload(id), RETRY_AFTER_MS);
    } else {
      setBroken((set) => new Set(set).add(id));
    }
  };
  const tryAgain = (id: number) => {
    setBroken((set) => new Set([...set].filter((b) => b !== id)));
    setReloads((r) => ({ ...r, [id]: 0 }));
    void onExpired();
  };

  return (
    <section
      className={styles.carousel}
      aria-roledescription="carousel"
      aria-label={title}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (start.current = null)}
    >
      <div className={styles.viewport} style={{ aspectRatio: ratio }} aria-live="polite">
        {media.map((item, i) => (
          <div
            key={item.media_id}
            className={styles.slide}
            role="group"
            aria-roledescription="slide"
            aria-label={`Image ${i + 1} of ${count}`}
            hidden={i !== at}
          >
            {broken.has(item.media_id) ? (
              <div className={styles.broken}>
                <ImageIcon size={40} />
                <span>This image could not be loaded.</span>
                <Button variant="secondary" size="sm" icon={<RefreshIcon size={16} />} onClick={() => tryAgain(item.media_id)}>
                  Try again
                </Button>
              </div>
            ) : (
              // The neighbours load early so a page turn shows at once.
              <img
                // A new element loads again even when the address did not change.
                key={`${item.url}#${reloads[item.media_id] ?? 0}`}
                className={styles.image}
                src={item.url}
                alt={`${title}, image ${i + 1} of ${count}`}
                width={item.width ?? undefined}
                height={item.height ?? undefined}
                loading={Math.abs(i - at) <= 1 || (at === 0 && i === count - 1) ? 'eager' : 'lazy'}
                draggable={false}
                onError={() => onError(item.media_id)}
              />
            )}
          </div>
        ))}
      </div>
      {count > 1 && (
        <>
          <button type="button" className={`${styles.arrow} ${styles.prev}`} aria-label="Previous image" onClick={() => go(at - 1)}>
            ‹
          </button>
          <button type="button" className={`${styles.arrow} ${styles.next}`} aria-label="Next image" onClick={() => go(at + 1)}>
            ›
          </button>
          <span className={styles.counter} aria-hidden="true">
            {at + 1} / {count}
          </span>
          <div className={styles.dots} role="group" aria-label="Choose an image">
            {media.map((item, i) => (
              <button
                key={item.media_id}
                type="button"
                className={styles.dot}
                aria-label={`Go to image ${i + 1}`}
                aria-current={i === at ? 'true' : undefined}
                onClick={() => go(i)}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
