import { useCallback } from 'react';

/**
 * A ref for an `<img>` or `<video>` that shows a chosen local file: a local address made while the
 * element shows it, given back when it goes (React 19 ref cleanup).
 */
export function useFileSource(file: File) {
  return useCallback(
    (element: HTMLImageElement | HTMLVideoElement | null) => {
      if (!element) return;
      const url = URL.createObjectURL(file);
      element.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file],
  );
}
