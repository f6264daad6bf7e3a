/** The paged tables' paginator (spec part 2 §9: 5 rows a page, at most 5 page numbers shown). */
export const PAGE_NUMBERS_SHOWN = 5;

/** The page numbers (1-based) to show around the current page: a window of at most five, kept inside 1…pages. */
export function pageWindow(page: number, pages: number, shown = PAGE_NUMBERS_SHOWN): number[] {
  if (pages <= 0) return [];
  const count = Math.min(shown, pages);
  const first = Math.min(Math.max(1, page - Math.floor(count / 2)), pages - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}

export const pagesOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** The offset of the page after `pages` (read so far, the last being `last`), or undefined once all `total` are read. */
export function nextPageOffset<P extends { total: number }>(last: P, pages: readonly P[], items: (page: P) => readonly unknown[]): number | undefined {
  const seen = pages.reduce((sum, page) => sum + items(page).length, 0);
  return seen < last.total && items(last).length > 0 ? seen : undefined;
}
