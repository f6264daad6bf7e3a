/**
 * Journey: toy-device access in the demo's video call (broadcaster1 hosts viewer1), simulated toy.
 * The host switches the virtual toy on and offers viewer1 control for a 20-coin tip; viewer1 pays,
 * gets the control panel and moves the slider: the host's virtual toy shows the intensity and the
 * command. The host asks for an extra tip, viewer1 pays it; the host revokes and viewer1's panel goes
 * with the spec's message.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot as shoot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { acknowledgeCallPolicy, CALENDAR, payMeetingTip } from './support/meetings';

const openAppPage = useAppInBrowser({ demoCall: true });
const step = journeySteps();

/** Shots of a page with two live videos are slow once animations are held: these take the page as it is. */
const screenshot = (page: Page, name: string) => shoot(page, name, { animations: 'allow' });

/** A toast's line (the toast's live region repeats it for screen readers). */
const toast = (page: Page, text: string) => page.getByText(text).first();

/** Moves a range input by keyboard steps (a range cannot be filled). */
async function nudge(page: Page, name: string, steps: number): Promise<void> {
  const slider = page.getByRole('slider', { name });
  await slider.focus();
  for (let i = 0; i < steps; i += 1) await slider.press('ArrowRight');
}

describe('toy-device access', () => {
  let host: TestPage;
  let guest: TestPage;
  let roomPath = '';

  step('host and invitee meet in the call', async () => {
    guest = await openAppPage();
    await signInAt(guest.page, 'viewer1', CALENDAR);
    await acknowledgeCallPolicy(guest.page);
    await guest.page.getByText('Invited: Demo video call').first().click();
    await guest.page.getByRole('dialog', { name: 'Demo video call' }).getByRole('link', { name: 'Join Video Call' }).click();
    await guest.page.waitForURL(/\/streams\/meeting-view\?id=\d+$/);
    roomPath = new URL(guest.page.url()).pathname + new URL(guest.page.url()).search;
    host = await openAppPage();
    await signInAt(host.page, 'broadcaster1', roomPath);
    await host.page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await payMeetingTip(guest.page, roomPath);
  }, 60_000);

  step('the host switches the virtual toy on and offers viewer1 access for 20 coins', async () => {
    const toy = host.page.getByRole('region', { name: 'Virtual toy' });
    await toy.getByRole('switch', { name: 'Device connected' }).click();
    await expect.poll(() => toy.getByRole('switch', { name: 'Device connected' }).getAttribute('aria-checked')).toBe('true');
    await host.page.getByRole('button', { name: 'Device access' }).click();
    const modal = host.page.getByRole('dialog', { name: MSG.toyAccessTitle });
    await nudge(host.page, 'Device tip', 2);
    await modal.getByText('20 Coins').waitFor();
    await modal.getByRole('radio', { name: 'viewer1' }).check({ timeout: 10_000 });
    await modal.getByRole('button', { name: 'Generate QR' }).click();
    await modal.getByText(MSG.toyWaitingForViewer).waitFor();
    await modal.getByRole('button', { name: 'Scan QR Code' }).click();
    await modal.getByRole('img', { name: /^QR code/ }).waitFor();
    await screenshot(host.page, 'toys-host-waiting');
  });

  step('viewer1 pays, gets the controls, and the slider moves the host’s virtual toy', async () => {
    const offer = guest.page.getByRole('dialog', { name: MSG.toyOfferTitle });
    await offer.getByText('20 Coins').waitFor({ timeout: 10_000 });
    await offer.getByRole('button', { name: 'Get Access' }).click();
    const panel = guest.page.getByRole('region', { name: 'Device control' });
    await panel.waitFor();
    await toast(host.page, MSG.toyViewerTipped).waitFor();
    await host.page.getByRole('dialog', { name: MSG.toyManageTitle }).getByRole('button', { name: 'Close' }).first().click();

    await nudge(guest.page, 'Vibrate', 12);
    const meter = host.page.getByRole('meter', { name: 'Vibrate intensity' });
    await expect.poll(() => meter.getAttribute('aria-valuenow'), { timeout: 2_000 }).toBe('12');
    await host.page.getByRole('list', { name: 'Commands received' }).getByText('Vibrate 12').first().waitFor();
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
