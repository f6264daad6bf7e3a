import { describe, expect, it } from 'vitest';
import { pagesOf, pageWindow } from './paging';

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
