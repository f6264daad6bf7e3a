/** Page numbers under a paged table (subscriptions, analytics, referrals): at most five around the current one, with previous and next. */
import { Button } from './Button';
import { pageWindow, pagesOf } from './paging';
import styles from './Paginator.module.css';

interface PaginatorProps {
  label: string;
  total: number;
  size: number;
  offset: number;
  onOffset: (offset: number) => void;
}

export function Paginator({ label, total, size, offset, onOffset }: PaginatorProps) {
  const pages = pagesOf(total, size);
  if (pages <= 1) return null;
  const page = Math.floor(offset / size) + 1;
  const go = (to: number) => onOffset((to - 1) * size);
  return (
    <nav className={styles.paginator} aria-label={label}>
      <Button variant="ghost" size="sm" disabled={page === 1} onClick={() => go(page - 1)} aria-label="Previous page">
        ‹
      </Button>
      {pageWindow(page, pages).map((n) => (
        <Button key={n} variant={n === page ? 'primary' : 'ghost'} size="sm" onClick={() => go(n)} aria-current={n === page ? 'page' : undefined}>
          {n}
        </Button>
      ))}
      <Button variant="ghost" size="sm" disabled={page === pages} onClick={() => go(page + 1)} aria-label="Next page">
        ›
      </Button>
    </nav>
  );
}
