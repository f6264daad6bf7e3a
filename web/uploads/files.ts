/** The files people choose for an upload: which kind a file is, its type for the upload metadata, and its size as read. */

const VIDEO_EXTENSIONS = ['.mov', '.mp4'];
export const VIDEO_ACCEPT = '.mov,.mp4,video/mp4,video/quicktime';
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,image/heic,image/heif';

/** A .mov or .mp4 file (by its name: phones and browsers disagree on the types they report). */
export const isVideoFile = (file: Pick<File, 'name'>): boolean => VIDEO_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext));

export const isImageFile = (file: Pick<File, 'type'>): boolean => file.type.startsWith('image/');

/** The file's type for the upload's metadata; a video whose browser left it empty is named by its extension. */
export function fileType(file: Pick<File, 'name' | 'type'>): string {
  if (file.type) return file.type;
  if (file.name.toLowerCase().endsWith('.mov')) return 'video/quicktime';
  if (file.name.toLowerCase().endsWith('.mp4')) return 'video/mp4';
  return 'application/octet-stream';
}

/** File sizes as people read them: "820 KB", "14.2 MB", "1.3 GB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} KB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1).replace(/\.0$/, '')} MB`;
  return `${(bytes / 1_000_000_000).toFixed(1).replace(/\.0$/, '')} GB`;
}
