/**
 * Journey: scheduled paid video calls. Two viewers follow broadcaster1, who schedules a call for both
 * from the form (policy notice, follower picker, success screen) and starts it. The first viewer opens
 * it from the calendar, meets the pay wall, buys coins and pays; host and viewer then both receive
 * moving video over the built-in WebRTC mesh (chromium's fake camera). The host mutes (the viewer sees
 * the muted microphone on the host's tile), stops and restarts the camera (the viewer sees the host's
 * avatar meanwhile), blurs, sends the second viewer (still at the pay wall) out to the calendar and
 * ends the call; the first viewer sees 'Meeting Ended' and rates the call.
 */
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { acknowledgeCallPolicy, CALENDAR, payMeetingTip, remoteVideoMoves } from './support/meetings';

const openAppPage = useAppInBrowser();
const step = journeySteps();

const TITLE = 'E2E fan call';
const PHONE = { width: 390, height: 844 };

/** Follows broadcaster1 from their profile (the demo data may have done it already). */
async function follow(page: Page, hostPath: string): Promise<void> {
  await page.goto(hostPath);
  await page.getByRole('heading', { name: '@broadcaster1' }).waitFor();
  const following = page.getByRole('button', { name: 'Following', exact: true });
  await page.getByRole('button', { name: 'Follow', exact: true }).or(following).waitFor();
  if (await following.count()) return;
  const answer = page.waitForResponse((r) => r.url().includes('/api/user/toggle-following') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  expect((await answer).ok()).toBe(true);
  await page.getByRole('button', { name: 'Following', exact: true }).waitFor();
}

describe('meetings', () => {
  let host: TestPage;
  let first: TestPage;
  let second: TestPage;
  let roomPath = '';

  step('two viewers follow broadcaster1 (or already do)', async () => {
    first = await openAppPage();
    await signInAt(first.page, 'viewer1', '/channel/search?search=broadcaster1');
    const people = first.page.getByRole('list', { name: 'People' });
    await people.getByRole('article', { name: 'broadcaster1', exact: true }).getByRole('link').click();
    await first.page.waitForURL(/\/u\/\d+$/);
    const hostPath = new URL(first.page.url()).pathname;
    await follow(first.page, hostPath);
    second = await openAppPage();
    await signInAt(second.page, 'viewer2', hostPath);
    await follow(second.page, hostPath);
  });

  step('the host reads the policy notice, then schedules a call for both from the form', async () => {
    host = await openAppPage();
    const { page } = host;
    await signInAt(page, 'broadcaster1', CALENDAR);
    const policy = page.getByRole('region', { name: MSG.videoCallPolicyTitle });
    await policy.getByText(MSG.videoCallPolicyBan).waitFor();
    await screenshot(page, 'meetings-policy');
    await policy.getByLabel('Don’t show this again').check();
    await policy.getByRole('button', { name: 'I understand' }).click();
    await policy.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('dontShowVideoCallPolicy'))).toBe('true');
    await page.getByRole('link', { name: 'Schedule a Video Call' }).click();
    await page.waitForURL(/\/user\/create-meeting$/);
    await page.getByRole('heading', { name: 'Schedule a Video Call' }).waitFor();
    expect(await page.getByRole('region', { name: MSG.videoCallPolicyTitle }).count()).toBe(0);

    // The form's checks, in the spec's words.
    await page.getByRole('button', { name: 'Schedule Video Call' }).click();
    await page.getByText(MSG.titleRequired).waitFor();
    await page.getByText(MSG.chooseRecipient).waitFor();

    await page.getByLabel('Title').fill(TITLE);
    await page.getByLabel('Search your followers').fill('viewer');
    const picker = page.getByRole('group', { name: /Invite followers/ });
    await picker.getByLabel('viewer1').check();
    await picker.getByLabel('viewer2').check();
    const tip = page.getByLabel('Meeting tip (coins)');
    await tip.fill('255');
    await tip.blur();
    await expect.poll(() => tip.inputValue()).toBe('260');
    await tip.fill('250');
    await tip.blur();
    await screenshot(page, 'meetings-form');
    await page.getByRole('button', { name: 'Schedule Video Call' }).click();
    await page.getByRole('heading', { name: `Video call scheduled: ${TITLE}` }).waitFor();
    await page.getByText('Scheduled for').waitFor();
    await page.getByRole('button', { name: 'Delete Call' }).waitFor();
    await page.getByRole('link', { name: 'Edit' }).waitFor();
    await screenshot(page, 'meetings-success');
    await page.getByRole('link', { name: 'Start Video Call' }).click();
    await page.waitForURL(/\/streams\/meeting-view\?id=\d+$/);
    roomPath = new URL(page.url()).pathname + new URL(page.url()).search;
    await page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
  });

  step('the first viewer opens the call from the calendar and meets the pay wall, buys coins and pays', async () => {
    const { page } = first;
    await page.goto(CALENDAR);
    await acknowledgeCallPolicy(page);
    await page.getByText(`Invited: ${TITLE}`).first().click();
    const dialog = page.getByRole('dialog', { name: TITLE });
    await dialog.getByText('Hosted by').waitFor();
    expect(await dialog.getByRole('button', { name: 'Delete Call' }).count()).toBe(0);
    await screenshot(page, 'meetings-calendar-dialog');
    await dialog.getByRole('link', { name: 'Join Video Call' }).click();
    await page.waitForURL((url) => url.pathname + url.search === roomPath);
    const wall = page.getByRole('region', { name: 'This is a paid video call' });
    await wall.waitFor();
    await screenshot(page, 'meetings-pay-wall');
    await payMeetingTip(page, roomPath, 250, 'meetings-pay-confirm');
  });

  step('host and viewer both receive moving video', async () => {
    await expect.poll(() => remoteVideoMoves(first.page), { timeout: 30_000, interval: 1_000 }).toBe(true);
    await expect.poll(() => remoteVideoMoves(host.page), { timeout: 30_000, interval: 1_000 }).toBe(true);
    await first.page.getByRole('textbox').first().waitFor();
    await screenshot(host.page, 'meetings-room-host');
    await screenshot(first.page, 'meetings-room-viewer');
  }, 90_000);

  step('the host mutes; the toggle is locked a moment after use; the viewer sees the host muted', async () => {
    const { page } = host;
    const hostTile = first.page.getByRole('figure', { name: /broadcaster1 \(host\)/ });
    const mutedMark = hostTile.getByRole('img', { name: 'Microphone off' });
    expect(await mutedMark.count()).toBe(0);
    await page.getByRole('button', { name: 'Mute', exact: true }).click();
    const unmute = page.getByRole('button', { name: 'Unmute' });
    await unmute.waitFor();
    expect(await unmute.isDisabled()).toBe(true);
    expect(await page.evaluate(() => (document.querySelector('video[data-local-video]') as HTMLVideoElement).srcObject instanceof MediaStream)).toBe(true);
    await page.getByText('(you) · muted').waitFor();
    await mutedMark.waitFor({ timeout: 5_000 });
    await screenshot(first.page, 'meetings-room-viewer-host-muted');
  });

  step('the host stops the camera: the viewer sees the host’s avatar instead of a black frame, and the video once it is back', async () => {
    const { page } = host;
    const hostTile = first.page.getByRole('figure', { name: /broadcaster1 \(host\)/ });
    const hostVideo = hostTile.locator('video[data-remote-video]');
    await page.getByRole('button', { name: 'Stop video' }).click();
    await hostTile.getByText('· camera off').waitFor({ timeout: 5_000 });
    expect(await hostVideo.isHidden()).toBe(true);
    await screenshot(first.page, 'meetings-room-viewer-host-camera-off');
    const start = page.getByRole('button', { name: 'Start video' });
    await expect.poll(() => start.isEnabled(), { timeout: 10_000 }).toBe(true);
    await start.click();
    await hostVideo.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await hostTile.getByText('· camera off').count()).toBe(0);
  }, 30_000);

  step('the host blurs the background: the viewer keeps receiving moving video from the blurred canvas', async () => {
    const { page } = host;
    await page.getByRole('button', { name: 'Blur background' }).click();
    await page.getByRole('button', { name: 'Background: blur' }).waitFor();
    await expect.poll(() => remoteVideoMoves(first.page), { timeout: 15_000, interval: 1_000 }).toBe(true);
    await screenshot(first.page, 'meetings-room-viewer-blurred');
    await page.getByRole('button', { name: 'Background: blur' }).click();
    await page.getByRole('button', { name: 'Blur background' }).waitFor();
  }, 30_000);

  step('the second viewer waits at the pay wall; the host removes them and they land on the calendar', async () => {
    await second.page.goto(roomPath);
    await second.page.getByRole('region', { name: 'This is a paid video call' }).waitFor();
    const unpaid = host.page.getByRole('list', { name: 'Waiting to pay' });
    await unpaid.getByText('viewer2 (unpaid)').waitFor({ timeout: 15_000 });
    await screenshot(host.page, 'meetings-room-host-unpaid');
    await unpaid.getByRole('button', { name: 'Remove' }).click();
    await second.page.waitForURL((url) => url.pathname === CALENDAR, { timeout: 15_000 });
  });

  step('the host ends the call; the first viewer sees Meeting Ended and rates it', async () => {
    // Ending is asked first: it sends the paying guests out too.
    await host.page.getByRole('button', { name: 'End call' }).click();
    const confirmEnd = host.page.getByRole('dialog', { name: MSG.meetingEndConfirmTitle });
    await screenshot(host.page, 'meetings-end-confirm');
    await confirmEnd.getByRole('button', { name: 'Keep the call' }).click();
    await confirmEnd.waitFor({ state: 'detached' });
    await host.page.getByRole('button', { name: 'End call' }).click();
    await confirmEnd.getByRole('button', { name: 'End call for everyone' }).click();
    const hostEnded = host.page.getByRole('dialog', { name: MSG.meetingEndedTitle });
    await hostEnded.getByText(MSG.meetingEndedByYou).waitFor();
    const ended = first.page.getByRole('dialog', { name: MSG.meetingEndedTitle });
    await ended.getByText(MSG.meetingEndedByHost).waitFor({ timeout: 15_000 });
    await screenshot(first.page, 'meetings-ended');
    await ended.getByRole('button', { name: 'Ok' }).click();
    await first.page.getByRole('heading', { name: MSG.streamEndedTitle }).waitFor();
    await first.page.getByRole('radiogroup', { name: 'Rate this call' }).locator('label').nth(3).click();
    await screenshot(first.page, 'meetings-rating');
    const rated = first.page.waitForResponse((r) => r.url().includes('/api/user/rate-meeting'));
    await first.page.getByRole('button', { name: 'Finished' }).click();
    expect((await rated).ok()).toBe(true);
    await first.page.waitForURL((url) => url.pathname === CALENDAR);
    await hostEnded.getByRole('button', { name: 'Ok' }).click();
    await host.page.waitForURL((url) => url.pathname === CALENDAR);
  });

  step('the host schedules a later call, edits it from the calendar, and deletes it after confirming', async () => {
    const { page } = host;
    await page.goto('/user/create-meeting');
    await page.getByLabel('Title').fill('E2E later call');
    await page.getByLabel('Search your followers').fill('viewer1');
    await page.getByRole('group', { name: /Invite followers/ }).getByLabel('viewer1').check();
    await page.getByRole('switch', { name: 'Schedule for later' }).click();
    const local = (offsetMs: number) =>
      page.evaluate((ms) => {
        const d = new Date(Date.now() + ms);
        const pad = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
      }, offsetMs);
    await page.getByLabel('Date and time').fill(await local(-86_400_000));
    await page.getByRole('button', { name: 'Schedule Video Call' }).click();
    await page.getByText(MSG.validDateTime).waitFor();
    await page.getByLabel('Date and time').fill(await local(2 * 3_600_000));
    await page.getByRole('button', { name: 'Schedule Video Call' }).click();
    await page.getByRole('heading', { name: 'Video call scheduled: E2E later call' }).waitFor();

    await page.goto(CALENDAR);
    await page.getByText('Hosting: E2E later call').first().click();
    let dialog = page.getByRole('dialog', { name: 'E2E later call' });
    await dialog.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit Video Call' }).waitFor();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('E2E later call');
    await page.getByLabel('Title').fill('E2E later call, moved');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Video call updated: E2E later call, moved' }).waitFor();

    await page.goto(CALENDAR);
    await page.getByText('Hosting: E2E later call, moved').first().click();
    dialog = page.getByRole('dialog', { name: 'E2E later call, moved' });
    await dialog.getByRole('button', { name: 'Delete Call' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByText('Hosting: E2E later call, moved').count()).toBe(0);
  });

  step('the calendar fits a phone', async () => {
    const phone = await openAppPage(PHONE);
    await signInAt(phone.page, 'viewer1', CALENDAR);
    await acknowledgeCallPolicy(phone.page);
    await phone.page.getByText(`Invited: ${TITLE}`).first().waitFor();
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(phone.page, 'meetings-calendar-phone');
    for (const page of [host, first, second, phone]) expect(page.errors).toEqual([]);
  });
});
