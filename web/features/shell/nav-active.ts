/** Which side bar entry a path belongs to (spec part 1 §2 Shell, active highlight). */
export type NavSection = 'browse' | 'create-post' | 'video-call' | 'messages' | 'download' | 'offers' | null;

const BROWSE = ['/channel/custom', '/channel/channel', '/channel/group'];
const VIDEO_CALL = ['/user/create-meeting', '/user/schedule-meetings', '/streams/meeting-view'];

function under(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** `path` is the path without the skin prefix; `uploadPath` is the skin's create-post path. */
export function activeSection(path: string, uploadPath: string): NavSection {
  if (BROWSE.some((base) => under(path, base))) return 'browse';
  if (under(path, uploadPath)) return 'create-post';
  if (VIDEO_CALL.some((base) => under(path, base))) return 'video-call';
  if (under(path, '/messages')) return 'messages';
  if (under(path, '/download')) return 'download';
  if (under(path, '/ads/offers')) return 'offers';
  return null;
}
