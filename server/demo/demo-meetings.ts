/** A video call on the demo's calendar (made once, with the accounts): broadcaster1 hosts viewer1 and viewer2, who follow them. */
import type { ModuleServices } from '../platform/module';

export async function seedDemoMeetings(services: Pick<ModuleServices, 'social' | 'meetings'>, users: Map<string, number>): Promise<number> {
  const hostId = users.get('broadcaster1');
  const guests = ['viewer1', 'viewer2'].map((name) => users.get(name)).filter((id): id is number => id !== undefined);
  if (hostId === undefined || guests.length === 0) return 0;
  for (const guestId of guests) await services.social.setFollowing(guestId, hostId, true);
  // On the next half hour: the call can be opened at once and shows on today's calendar.
  const start = new Date(Math.ceil((Date.now() + 60_000) / 1_800_000) * 1_800_000);
  await services.meetings.create({ userId: hostId, role: 'user', perms: [], suspended: false }, {
    title: 'Demo video call', audience: 'PRIVATE', audience_ids: guests, category_id: 2, tip_class: 'NORMAL',
    start_time: start.toISOString(), tip_rules: { viewer_min_amount: 250 }, timezone: 'UTC',
  });
  return 1;
}
