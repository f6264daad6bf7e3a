/**
 * Journey: toy-device access in the demo's video call (broadcaster1 hosts viewer1), simulated toy.
 * The host switches the virtual toy on and offers viewer1 control for a 50-coin tip; viewer1 pays,
 * gets the control panel and moves the slider: the host's virtual toy shows the intensity and the
 * command. The host asks for an extra tip, viewer1 pays it; the host revokes and viewer1's panel goes
 * with the spec's message.
 */
import type { Page } from 'playwright-core';
import { describe } from 'vitest';
import { MSG } from '../common/messages';
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
    await modal.getByRole('button', { name: 'Scan QR Code' }).click();
    await modal.getByRole('img', { name: /^QR code/ }).waitFor();
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

  step('the host asks for an extra tip and viewer1 pays it', async () => {
    await host.page.getByRole('button', { name: 'Device access: viewer1' }).click();
    const manage = host.page.getByRole('dialog', { name: MSG.toyManageTitle });
    await manage.getByText('Connected', { exact: true }).waitFor();
    await nudge(host.page, 'Request Tip', 4);
    await manage.getByRole('button', { name: 'Send Tip Request' }).click();
    await toast(host.page, MSG.toyTipRequestSent).waitFor();
    const request = guest.page.getByRole('dialog', { name: MSG.toyTipRequestTitle });
    await request.getByText('30 Coins').waitFor({ timeout: 10_000 });
    await request.getByRole('button', { name: 'Send Tip' }).click();
    await guest.page.getByRole('region', { name: 'Device control' }).waitFor();
    await manage.getByRole('button', { name: 'Send Tip Request' }).waitFor();
    await screenshot(host.page, 'toys-host-manage');
  });

  step('the host revokes: viewer1’s controls go with the spec’s message', async () => {
    await host.page.getByRole('dialog', { name: MSG.toyManageTitle }).getByRole('button', { name: 'Revoke Access' }).click();
    await toast(host.page, MSG.toyAccessRevoked).waitFor();
    await toast(guest.page, MSG.toyAccessRevokedByBroadcaster).waitFor({ timeout: 5_000 });
    await screenshot(guest.page, 'toys-viewer-revoked');
    await guest.page.getByRole('region', { name: 'Device control' }).waitFor({ state: 'detached' });
    await host.page.getByRole('button', { name: 'Device access', exact: true }).waitFor();
  });
});
