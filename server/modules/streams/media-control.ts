/**
 * The streams module's handle on the media layer. The media instance acts directly; an API-only
 * instance (ROLE=api) asks the media instances over the bus.
 */
import type { Bus } from '../../platform/bus/bus';
import type { MediaServer } from '../../platform/media/media-server';
import type { MediaControl } from './service';

const CHANNEL = 'media:control';

type Command = { op: 'stop' | 'thumbnail'; streamId: number };

/** `playbackTtlSeconds`: see PLAYBACK_TTL_SECONDS in the configuration. */
export function createMediaControl(
  media: () => MediaServer,
  bus: Bus,
  local: boolean,
  playbackTtlSeconds = 600,
): MediaControl & { listen(): Promise<void> } {
  return {
    async playbackUrl(streamId, viewer) {
      return media().playbackUrl(streamId, viewer, playbackTtlSeconds);
    },
    async stopBroadcast(streamId) {
      if (local) await media().stopBroadcast(streamId);
      else await bus.publish(CHANNEL, { op: 'stop', streamId } satisfies Command);
    },
    async grabThumbnail(streamId) {
      if (local) return media().grabThumbnail(streamId);
      await bus.publish(CHANNEL, { op: 'thumbnail', streamId } satisfies Command);
      return true;
    },
    /** On media instances: act on commands from API-only instances. */
    async listen() {
      if (!local) return;
      await bus.subscribe(CHANNEL, (message) => {
        const command = message as Command;
        if (command.op === 'stop') void media().stopBroadcast(command.streamId);
        if (command.op === 'thumbnail') void media().grabThumbnail(command.streamId);
      });
    },
  };
}
