/** Channels: the browse categories and their broadcasters. */
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerChannelRoutes } from './routes';
import { createChannelsService, type ChannelsService } from './service';

export type { ChannelsService } from './service';

declare module '../../platform/module' {
  interface ModuleServices {
    channels: ChannelsService;
  }
}

export function createChannelsModule({ db }: ModuleContext): AppModule {
  const channels = createChannelsService({ db });
  return { name: 'channels', services: { channels }, routes: (app) => registerChannelRoutes(app, { channels }) };
}
