/**
 * Private and group shows billed by the minute (decision 0085): the broadcaster's offer, requests and
 * tickets, the seats' minutes through the ledger, and who may see the stream while a show is on (the
 * streams module's playback asks here through the `showRules` hook).
 */
import { playbackGraceMs } from '../../../common/rules/shows';
import type { AppModule, ModuleContext } from '../../platform/module';
import { createShowBilling } from './billing';
import { registerShowRoutes } from './routes';
import { createShows, type Shows } from './service';

export type { Shows } from './service';

declare module '../../platform/module' {
  interface ModuleServices {
    shows: Shows;
  }
}

export function createShowsModule(ctx: ModuleContext): AppModule {
  const minuteMs = ctx.config.showMinuteMs;
  const graceMs = playbackGraceMs(minuteMs);
  const ledger = ctx.service('ledger');
  const accounts = ctx.service('accounts');
  const chat = ctx.service('chat');
  const billing = createShowBilling({ db: ctx.db, ledger, feePercent: ctx.config.platformFees.show_minute ?? 0, minuteMs, graceMs });
  const shows = createShows({
    db: ctx.db,
    ledger,
    accounts,
    streamReads: ctx.service('streamReads'),
    streamAccess: ctx.service('streamAccess'),
    billing,
    channels: { publish: chat.publish, events: ctx.events },
    minuteMs,
  });
  ctx.fill('showRules', { admits: (streamId, viewerId) => shows.admission(streamId, viewerId, graceMs), keptOut: shows.keptOut });
  ctx.events.on('stream.ended', ({ streamId }) => shows.streamEnded(streamId));
  return {
    name: 'shows',
    services: { shows },
    routes: (app) => registerShowRoutes(app, { shows, accounts }),
    // Each minute is billed at its start: the job looks often enough that a seat's next minute follows its last.
    jobs: [{ name: 'bill-show-minutes', everyMs: Math.min(1000, Math.floor(minuteMs / 10)), roles: ['worker'], run: async () => void (await shows.bill()) }],
  };
}
