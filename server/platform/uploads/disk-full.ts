import { statfs } from 'node:fs/promises';

/** The disk (or the quota on it) is full: what was being written is given up, and may be tried again once there is room. */
export class DiskFull extends Error {}

/** ffmpeg's words for a full disk in its log. */
export const DISK_FULL_LOG = /No space left on device|Disk quota exceeded/i;

/** A write that failed because the disk is full. */
export const isDiskFull = (err: unknown): boolean => {
  if (err instanceof DiskFull) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
};

/** Less room than this on a disk counts as full: ffmpeg does not always say why its output came out short. */
const NEARLY_FULL_BYTES = 1 << 20;

/** Whether the disk holding `dir` is (all but) full now. */
export async function diskIsFull(dir: string): Promise<boolean> {
  const fs = await statfs(dir).catch(() => null);
  return fs !== null && fs.bavail * fs.bsize < NEARLY_FULL_BYTES;
}
