/**
 * The streams module's handle on the media layer. The media instance acts directly; an API-only
 * instance (ROLE=api) asks the media instances over the bus. Ingest health is a question: the asker
 * names a reply channel and the media instance that ingests the stream answers on it (the others
 * stay silent); no answer within REPLY_TIMEOUT_MS means no instance ingests it.
 */
import { randomUUID } from 'node:crypto';
import type { Bus } from '../../platform/bus/bus';
import type { IngestHealth } from '../../platform/media/ingest-session';
import type { MediaServer } from '../../platform/media/media-server';

/** What the streams module asks of the media layer. */
export interface MediaControl {
  /**
   * A signed, short-lived HLS address of the stream, for this viewer only (`viewer`: playbackViewer), played
   * from this client only (`client`: the session or browser the gate finds on each fetch, playbackClientOf).
   */
  playbackUrl(streamId: number, viewer: string, client: string): Promise<string>;
  /** End the stream's broadcast if one runs (moderation, deletion). */
  stopBroadcast(streamId: number): Promise<void>;
  /** Grab a new thumbnail from the live video; false when not live. */
  grabThumbnail(streamId: number): Promise<boolean>;
  /** The stream's ingest health from the media instance that ingests it; null when none does. */
  ingestHealth(streamId: number): Promise<IngestHealth | null>;
}

const CHANNEL = 'media:control';
const REPLY_TIMEOUT_MS = 1500;

type Command = { op: 'stop' | 'thumbnail'; streamId: number } | { op: 'health'; streamId: number; replyTo: string };

/** `playbackTtlSeconds`: see PLAYBACK_TTL_SECONDS in the configuration. */
export function createMediaControl(
  media: () => MediaServer,
  bus: Bus,
  local: boolean,
  playbackTtlSeconds = 600,
): MediaControl & { listen(): Promise<void> } {
  async function askIngestHealth(streamId: number): Promise<IngestHealth | null> {
    const replyTo = `media:reply:${randomUUID()}`;
    let settle: (health: IngestHealth | null) => void = () => {};
    const answered = new Promise<IngestHealth | null>((resolve) => (settle = resolve));
    const unsubscribe = await bus.subscribe(replyTo, (message) => settle(message as IngestHealth));
    const timer = setTimeout(() => settle(null), REPLY_TIMEOUT_MS);
    try {
      await bus.publish(CHANNEL, { op: 'health', streamId, replyTo } satisfies Command);
      return await answered;
    } finally {
      clearTimeout(timer);
      await unsubscribe();
    }
  }

  return {
    async playbackUrl(streamId, viewer, client) {
      return media().playbackUrl(streamId, viewer, client, playbackTtlSeconds);
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
    // With several media instances the encoder is connected to one of them: ask the others when it is not this one.
    async ingestHealth(streamId) {
      return (local ? media().ingestHealth(streamId) : null) ?? askIngestHealth(streamId);
    },
    /** On media instances: act on commands from API-only instances. */
    async listen() {
      if (!local) return;
      await bus.subscribe(CHANNEL, (message) => {
        const command = message as Command;
        if (command.op === 'stop') void media().stopBroadcast(command.streamId);
        if (command.op === 'thumbnail') void media().grabThumbnail(command.streamId);
        if (command.op === 'health') {
          const health = media().ingestHealth(command.streamId);
          if (health) void bus.publish(command.replyTo, health);
        }
      });
    },
  };
}
