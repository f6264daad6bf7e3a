import { describe, expect, it } from 'vitest';
import { pagesOf, pageWindow, nextPageOffset } from './paging';

describe('the paginator', () => {
  it('shows at most five page numbers around the current page, inside the range', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 9)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(5, 9)).toEqual([3, 4, 5, 6, 7]);
    expect(pageWindow(9, 9)).toEqual([5, 6, 7, 8, 9]);
    expect(pageWindow(8, 9)).toEqual([5, 6, 7, 8, 9]);
    expect(pageWindow(1, 0)).toEqual([]);
  });

  it('counts pages of five, at least one', () => {
    expect(pagesOf(0, 5)).toBe(1);
    expect(pagesOf(5, 5)).toBe(1);
    expect(pagesOf(6, 5)).toBe(2);
  });
});

describe('the next page of a list read by offset', () => {
  const page = (n: number, total: number) => ({ items: Array.from({ length: n }, (_, i) => i), total });
  it('goes on past what was read until the total is reached, and stops at an empty page', () => {
    expect(nextPageOffset(page(20, 45), [page(20, 45)], (p) => p.items)).toBe(20);
    expect(nextPageOffset(page(5, 45), [page(20, 45), page(20, 45), page(5, 45)], (p) => p.items)).toBeUndefined();
    expect(nextPageOffset(page(0, 45), [page(20, 45), page(0, 45)], (p) => p.items)).toBeUndefined();
  });
});
