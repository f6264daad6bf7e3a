/**
 * Journey: the video-call room's states, on the demo's call (broadcaster1 hosts viewer1 and viewer2).
 * viewer1 sees the new invitation counted in the side bar, opens it from the calendar, arrives first
 * and waits for the host; the host's arrival lets them pay and see the host's
 * video; the host hanging up sends viewer1 back to waiting, and coming back resumes the call. viewer1's
 * network drops: the room says so, and once back the call and the chat carry on. The room fits a phone,
 * and a browser without WebRTC is told it cannot join.
 */
import { describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import { signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { acknowledgeCallPolicy, CALENDAR, joinFromCalendar, payMeetingTip, remoteVideoMoves } from './support/meetings';

const openAppPage = useAppInBrowser({ demoCall: true });
const step = journeySteps();

const TITLE = 'Demo video call';
const PHONE = { width: 390, height: 844 };
const VIDEO = { timeout: 30_000, interval: 1_000 };

describe('the meeting room', () => {
  let host: TestPage;
  let guest: TestPage;
  let roomPath = '';

  const waitingWall = (page: TestPage) => page.page.getByRole('dialog', { name: MSG.waitingForHostTitle });

  step('an invitee who arrives before the host waits for them', async () => {
    guest = await openAppPage();
    const { page } = guest;
    await signInAt(page, 'viewer1', '/');
    const videoCall = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Video Call/ });
    await videoCall.getByLabel('1 new invitation').waitFor();
    await screenshot(page, 'meeting-room-new-invitation');
    await videoCall.click();
    await acknowledgeCallPolicy(page);
    await expect.poll(() => videoCall.getByLabel('1 new invitation').count()).toBe(0);
    roomPath = await joinFromCalendar(page, TITLE);
    await waitingWall(guest).getByText(MSG.waitingForHost).waitFor();
    await screenshot(page, 'meeting-room-waiting');
  });

  step("the host's arrival lifts the wait; the invitee pays and both see each other's video", async () => {
    host = await openAppPage();
    await signInAt(host.page, 'broadcaster1', roomPath);
    await host.page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await waitingWall(guest).waitFor({ state: 'detached', timeout: 15_000 });
    await payMeetingTip(guest.page, roomPath);
    await expect.poll(() => remoteVideoMoves(guest.page), VIDEO).toBe(true);
    await expect.poll(() => remoteVideoMoves(host.page), VIDEO).toBe(true);
  }, 90_000);

  step('the host hangs up: the invitee waits again; the host comes back and the call resumes', async () => {
    await host.page.getByRole('button', { name: 'Hang up' }).click();
    await host.page.waitForURL((url) => url.pathname === CALENDAR);
    await waitingWall(guest).waitFor({ timeout: 15_000 });
    await host.page.goto(roomPath);
    await host.page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await waitingWall(guest).waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(() => remoteVideoMoves(guest.page), VIDEO).toBe(true);
  }, 60_000);

  step("the invitee's network drops: the room says so, and once back the call and the chat carry on", async () => {
    const lost = guest.page.getByRole('status').filter({ hasText: MSG.meetingNetworkLost });
    await guest.context.setOffline(true);
    await lost.waitFor({ timeout: 10_000 });
    await screenshot(guest.page, 'meeting-room-network-lost');
    await guest.context.setOffline(false);
    await lost.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => remoteVideoMoves(guest.page), VIDEO).toBe(true);
    await expect.poll(() => remoteVideoMoves(host.page), VIDEO).toBe(true);
    const chat = guest.page.getByRole('complementary', { name: 'Call chat' });
    await chat.getByRole('textbox').fill('Back again');
    await chat.getByRole('textbox').press('Enter');
    await host.page.getByRole('complementary', { name: 'Call chat' }).getByText('Back again').waitFor({ timeout: 10_000 });
  }, 90_000);

  step('the room fits a phone: the call, its controls and the chat, no sideways scrolling', async () => {
    await guest.page.setViewportSize(PHONE);
    await guest.page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await expect.poll(() => remoteVideoMoves(guest.page), VIDEO).toBe(true);
    const overflow = await guest.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await guest.page.getByRole('toolbar', { name: 'Call controls' }).isVisible()).toBe(true);
    await screenshot(guest.page, 'meeting-room-phone');
  }, 60_000);

  step('a browser without WebRTC is told it cannot join', async () => {
    const old = await openAppPage();
    await old.context.addInitScript(() => {
      Reflect.deleteProperty(window, 'RTCPeerConnection');
    });
    await signInAt(old.page, 'viewer2', roomPath);
    await old.page.getByText(MSG.meetingUnsupported).waitFor();
    await old.page.getByRole('link', { name: 'All Video Calls' }).waitFor();
    await screenshot(old.page, 'meeting-room-unsupported');
    // Chromium logs the reconnection attempts made while offline; anything else is a fault.
    const faults = (page: TestPage) => page.errors.filter((error) => !(page === guest && error.includes('WebSocket connection to')));
    for (const page of [host, guest, old]) expect(faults(page)).toEqual([]);
  });
});
