/** What the video-call journeys share: reading the room's video from the page, and paying the meeting tip. */
import type { Page } from 'playwright-core';
import { MSG } from '../../common/messages';
import { screenshot } from './browser';
import { buyThousandCoins } from './wallet';

export const CALENDAR = '/user/schedule-meetings';

/** Whether the page shows a remote participant's video that is really playing: frames with a size, time moving on. */
export async function remoteVideoMoves(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const video = document.querySelector<HTMLVideoElement>('video[data-remote-video]');
    if (!video || video.videoWidth === 0) return false;
    const before = video.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 700));
    return video.currentTime > before && video.videoWidth > 0;
  });
}

/** The calendar's policy notice, acknowledged for this visit. */
export async function acknowledgeCallPolicy(page: Page): Promise<void> {
  await page.getByRole('region', { name: MSG.videoCallPolicyTitle }).getByRole('button', { name: 'I understand' }).click();
}

/** On the calendar: the invitation to `title` opened and its Join Video Call followed; answers the room's path. */
export async function joinFromCalendar(page: Page, title: string): Promise<string> {
  await page.getByText(`Invited: ${title}`).first().click();
  await page.getByRole('dialog', { name: title }).getByRole('link', { name: 'Join Video Call' }).click();
  await page.waitForURL(/\/streams\/meeting-view\?id=\d+$/);
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** At the room's pay wall: coins bought first when the wallet is short, then the meeting tip paid; the call shows. */
export async function payMeetingTip(page: Page, roomPath: string, tip = 250, screenshotName?: string): Promise<void> {
  const wall = page.getByRole('region', { name: 'This is a paid video call' });
  await wall.waitFor();
  if (await wall.getByRole('link', { name: 'Buy coins' }).count()) {
    await buyThousandCoins(page);
    await page.goto(roomPath);
    await wall.waitFor();
  }
  await wall.getByRole('button', { name: new RegExp(`^Pay ${tip.toLocaleString('en-US')} Coins`) }).click();
  // Paying is confirmed first, as a tip is.
  const confirm = page.getByRole('dialog', { name: 'Pay for the video call' });
  await confirm.getByText(`${tip.toLocaleString('en-US')} Coins`).waitFor();
  if (screenshotName) await screenshot(page, screenshotName);
  await confirm.getByRole('button', { name: 'Confirm Payment' }).click();
  await page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
}
