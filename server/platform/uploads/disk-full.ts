/** A write that failed because the disk (or the user's quota on it) is full. */
export const isDiskFull = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
};
