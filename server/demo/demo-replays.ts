/**
 * Replays for a fresh demo installation, so the listings are not empty before anyone goes live. Each
 * goes the way a broadcast goes: the broadcaster's stream is set up and shown through the streams
 * service, a few seconds of a generated test pattern are recorded as HLS and stored where the ingest
 * stores a broadcast, and the ingest's callbacks record it live, give it a thumbnail and end it into a replay.
 */
import path from 'node:path';
import type { SkinId } from '../../common/skins';
import type { Principal } from '../platform/http/auth';
import { putFolder, type FileStore } from '../platform/storage/storage';
import type { ModuleServices } from '../platform/module';
import { PLAYLIST_NAME } from '../platform/media/hls-playlist';
import { broadcastDirKey, thumbnailKeyOf } from '../platform/media/ingest-session';
import { newBroadcastId } from '../platform/media/rtmp-ingest';
import { recordTestPattern } from '../platform/media/test-pattern';
import { grabThumbnail } from '../platform/media/thumbnails';

interface DemoReplay {
  username: string;
  title: string;
  description: string;
  pattern: string;
  toneHz: number;
  /** The listing channel a moderator would move the broadcaster to. */
  channel?: 'MOVE_USER_TO_WOMEN' | 'MOVE_USER_TO_MEN';
}

export const DEMO_REPLAYS: readonly DemoReplay[] = [
  { username: 'broadcaster1', title: 'Colour bars and tone', description: 'The classic calibration card.', pattern: 'smptehdbars', toneHz: 440, channel: 'MOVE_USER_TO_WOMEN' },
  { username: 'broadcaster2', title: 'Moving test card', description: 'A test card with a sweeping gradient.', pattern: 'testsrc2', toneHz: 523, channel: 'MOVE_USER_TO_MEN' },
  { username: 'broadcaster3', title: 'Counting test pattern', description: 'Colour wheel and a running counter.', pattern: 'testsrc', toneHz: 330 },
];

const REPLAY_SECONDS = 8;
const SKIN: SkinId = 'limelight';

type Services = Pick<ModuleServices, 'accounts' | 'streamReads' | 'broadcasting' | 'broadcastCallbacks' | 'media' | 'streamModeration' | 'ads'>;

/**
 * Makes each demo replay whose broadcaster exists and never streamed (so a second call adds nothing).
 * `moderatorId`: the demo administrator, who files broadcasters under Women and Men. Answers the
 * replays it made: their stream ids by broadcaster's username.
 */
export async function seedDemoReplays(
  services: Services,
  files: FileStore,
  users: { broadcasters: Map<string, number>; moderatorId: number; offerIds?: number[] },
): Promise<Map<string, number>> {
  const moderator = await services.accounts.loadPrincipal(users.moderatorId);
  const made = await Promise.all(DEMO_REPLAYS.map(async (replay): Promise<[string, number] | null> => {
    const userId = users.broadcasters.get(replay.username);
    if (userId === undefined || (await services.streamReads.lastStreamStartedAt(userId)) !== null) return null;
    const principal = await services.accounts.loadPrincipal(userId);
    if (!principal) return null;
    const streamId = await makeReplay(services, files, principal, replay, users.offerIds ?? []);
    if (replay.channel && moderator) await services.streamModeration.act(moderator, [streamId], replay.channel, 'demo data');
    return [replay.username, streamId];
  }));
  return new Map(made.filter((entry): entry is [string, number] => entry !== null));
}

/** `offerIds`: attached while it is live, as its broadcaster would on the dashboard. */
async function makeReplay(services: Services, files: FileStore, principal: Principal, replay: DemoReplay, offerIds: number[]): Promise<number> {
  const { broadcasting, broadcastCallbacks: callbacks, media } = services;
  const stream = await broadcasting.currentStream(principal.userId, SKIN);
  await broadcasting.updateSetup(stream.id, principal, { title: replay.title, description: replay.description, audience: 'PUBLIC', rating: 'G' }, SKIN);
  await broadcasting.goLive(stream.id, principal);

  const broadcastId = newBroadcastId();
  const dirKey = broadcastDirKey(stream.id, broadcastId);
  const playlistKey = `${dirKey}/${PLAYLIST_NAME}`;
  const thumbnailKey = thumbnailKeyOf(stream.id);
  const { recorded, thumbnail } = await files.withWorkDir(async (work) => {
    const hls = path.join(work, 'hls');
    const made = await recordTestPattern(media.ffmpegPath, hls, { pattern: replay.pattern, seconds: REPLAY_SECONDS, toneHz: replay.toneHz });
    const middle = made.segments[Math.floor(made.segments.length / 2)]!;
    const picture = path.join(work, 'thumb.jpg');
    const grabbed = await grabThumbnail(media.ffmpegPath, path.join(hls, middle), picture);
    await putFolder(files, dirKey, hls, { move: true });
    if (grabbed) await files.putFile(thumbnailKey, picture, { move: true });
    return { recorded: made, thumbnail: grabbed };
  });
  await callbacks.onLive({ streamId: stream.id, broadcastId, playlistKey, width: 640, height: 360 });
  if (offerIds.length > 0) await services.ads.selection.update(principal, SKIN, offerIds);
  if (thumbnail) await callbacks.onThumbnail({ streamId: stream.id, thumbnailKey });
  await callbacks.onEnded({ streamId: stream.id, broadcastId, playlistKey, lengthSeconds: recorded.lengthSeconds });
  return stream.id;
}
