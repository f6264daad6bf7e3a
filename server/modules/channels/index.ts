/** Channels: the browse categories and their broadcasters. */
import { createReadCache } from '../../platform/cache/read-cache';
import type { Db } from '../../platform/db/client';
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerChannelRoutes } from './routes';
import { createChannelsService, type ChannelsService } from './service';

export type { ChannelsService, ListedChannel } from './service';

/** The base channels, present in every installation (inserted when missing, at start). */
export const ensureBaseChannels = (db: Db) => createChannelsService({ db }).ensureBaseChannels();

declare module '../../platform/module' {
  interface ModuleServices {
    channels: ChannelsService;
  }
}

export async function createChannelsModule({ db, bus, config }: ModuleContext): Promise<AppModule> {
  const cache = await createReadCache(bus, { name: 'channels', ttlMs: config.readCacheMs });
  const channels = createChannelsService({ db, cache });
  return { name: 'channels', services: { channels }, routes: (app) => registerChannelRoutes(app, { channels }), stop: () => cache.close() };
}
