/**
 * Journey: toy-device access in the demo's video call (broadcaster1 hosts viewer1), simulated toy.
 * The host switches the virtual toy on and offers viewer1 control for a 50-coin tip; viewer1 pays,
 * gets the control panel and moves the slider: the host's virtual toy shows the intensity and the
 * command. The host asks for an extra tip of 30, then 60 while viewer1's tip of 30 is on its way: that
 * tip is refused, nothing moves, and viewer1's page shows 60 to accept; viewer1 pays it. The host
 * revokes and viewer1's panel goes with the spec's message.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { fill, MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot as shoot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { acknowledgeCallPolicy, CALENDAR, joinFromCalendar, payMeetingTip } from './support/meetings';
import { acceptOffer, connectVirtualToy, nudge, offerAccess, toast, toyShows } from './support/toys';

const openAppPage = useAppInBrowser({ demoCall: true });
const step = journeySteps();

/** Shots of a page with two live videos are slow once animations are held: these take the page as it is. */
const screenshot = (page: Page, name: string) => shoot(page, name, { animations: 'allow' });

describe('toy-device access', () => {
  let host: TestPage;
  let guest: TestPage;
  let roomPath = '';

  step('host and invitee meet in the call', async () => {
    guest = await openAppPage();
    await signInAt(guest.page, 'viewer1', CALENDAR);
    await acknowledgeCallPolicy(guest.page);
    roomPath = await joinFromCalendar(guest.page, 'Demo video call');
    host = await openAppPage();
    await signInAt(host.page, 'broadcaster1', roomPath);
    await host.page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await payMeetingTip(guest.page, roomPath);
  }, 60_000);

  step('the host switches the virtual toy on and offers viewer1 access for 50 coins', async () => {
    await connectVirtualToy(host.page);
    await offerAccess(host.page, 'viewer1', 8);
    const modal = host.page.getByRole('dialog', { name: MSG.toyAccessTitle });
    // The simulated provider says what it is: no app to scan with.
    expect(await modal.getByRole('button', { name: 'Scan QR Code' }).count()).toBe(0);
    await modal.getByRole('button', { name: 'Show access code' }).click();
    await modal.getByRole('img', { name: /^QR code/ }).waitFor();
    await modal.getByText(/^Virtual toy: no app to scan/).waitFor();
    await screenshot(host.page, 'toys-host-waiting');
  });

  step('viewer1 pays, gets the controls, and the slider moves the host’s virtual toy', async () => {
    await acceptOffer(guest.page, 50);
    await toast(host.page, MSG.toyViewerTipped).waitFor();
    await host.page.getByRole('dialog', { name: MSG.toyManageTitle }).getByRole('button', { name: 'Close' }).first().click();

    await nudge(guest.page, 'Vibrate', 12);
    await toyShows(host.page, 'Vibrate', 12);
    await host.page.getByRole('button', { name: 'Device access: viewer1' }).waitFor();
    await screenshot(guest.page, 'toys-viewer-controls');
    await screenshot(host.page, 'toys-host-virtual-toy');
  });

  step('the host asks for an extra tip, changes it before viewer1’s tip arrives, and viewer1 pays the new amount', async () => {
    await host.page.getByRole('button', { name: 'Device access: viewer1' }).click();
    const manage = host.page.getByRole('dialog', { name: MSG.toyManageTitle });
    await manage.getByText('Connected', { exact: true }).waitFor();
    await nudge(host.page, 'Request Tip', 4);
    await manage.getByRole('button', { name: 'Send Tip Request' }).click();
    await toast(host.page, MSG.toyTipRequestSent).waitFor();
    const request = guest.page.getByRole('dialog', { name: MSG.toyTipRequestTitle });
    await request.getByText('30 Coins').waitFor({ timeout: 10_000 });

    // viewer1 sends the 30 they see; before it arrives the host asks 60 instead (a request the host's page
    // would not make while one is pending, sent as a script would): the tip is refused and nothing moves.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await guest.page.route('**/api/user/lovense-action', async (route) => {
      if (route.request().postDataJSON()?.event === 'PAID_TIP_SUCCESS') await held;
      await route.continue();
    });
    const paying = guest.page.waitForResponse((res) => res.url().endsWith('/api/user/lovense-action') && res.request().postDataJSON()?.event === 'PAID_TIP_SUCCESS');
    await request.getByRole('button', { name: 'Send Tip' }).click();
    const meetingId = Number(new URL(roomPath, 'http://x').searchParams.get('id'));
    const guestId = await guest.page.evaluate(async () => ((await (await fetch('/api/user/check-user-session')).json()) as { user_id: number }).user_id);
    const asked = await host.page.evaluate(async (body) => {
      const { token } = (await (await fetch('/api/csrf-token')).json()) as { token: string };
      return (await fetch('/api/user/lovense-action', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify(body) })).status;
    }, { event: 'PAID_TIP_REQUEST', stream_id: meetingId, room: 'meeting', viewer_id: guestId, tip_amount: 60 });
    expect(asked).toBe(200);
    release();
    expect((await paying).status()).toBe(409);
    await toast(guest.page, fill(MSG.toyTipChanged, { amount: 60 })).waitFor();
    await request.getByText('60 Coins').waitFor();
    await screenshot(guest.page, 'toys-viewer-changed-ask');
    await guest.page.unroute('**/api/user/lovense-action');

    // viewer1 accepts the new amount.
    await request.getByRole('button', { name: 'Send Tip' }).click();
    await guest.page.getByRole('region', { name: 'Device control' }).waitFor();
    await manage.getByRole('button', { name: 'Send Tip Request' }).waitFor();
    await manage.getByText('paid 110 Coins').waitFor();
    await screenshot(host.page, 'toys-host-manage');
  }, 90_000); // A video call on 2 cores, and the page checks of its shots (decision 0048).

  step('the host revokes: viewer1’s controls go with the spec’s message', async () => {
    await host.page.getByRole('dialog', { name: MSG.toyManageTitle }).getByRole('button', { name: 'Revoke Access' }).click();
    await toast(host.page, MSG.toyAccessRevoked).waitFor();
    await toast(guest.page, MSG.toyAccessRevokedByBroadcaster).waitFor({ timeout: 15_000 });
    await screenshot(guest.page, 'toys-viewer-revoked');
    await guest.page.getByRole('region', { name: 'Device control' }).waitFor({ state: 'detached' });
    await host.page.getByRole('button', { name: 'Device access', exact: true }).waitFor();
  });
});
