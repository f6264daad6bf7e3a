/** Toy-device access steps shared by the journeys of the meeting room and the live stream. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { MSG } from '../../common/messages';

/** A toast's line (the toast's live region repeats it for screen readers). */
export const toast = (page: Page, text: string) => page.getByText(text).first();

/** Moves a range input by keyboard steps (a range cannot be filled). */
export async function nudge(page: Page, name: string, steps: number): Promise<void> {
  const slider = page.getByRole('slider', { name });
  await slider.focus();
  for (let i = 0; i < steps; i += 1) await slider.press('ArrowRight');
}

/** The host's virtual toy switched on. */
export async function connectVirtualToy(host: Page): Promise<void> {
  const toy = host.getByRole('region', { name: 'Virtual toy' });
  await toy.getByRole('switch', { name: 'Device connected' }).click();
  // On once the server has it (the switch shows the device as stored, asked again after the change).
  await expect.poll(() => toy.getByRole('switch', { name: 'Device connected' }).getAttribute('aria-checked'), { timeout: 15_000 }).toBe('true');
}

/** The host's Device access modal: `viewer` chosen (after `tipSteps` of the tip slider), Generate QR, the waiting view. */
export async function offerAccess(host: Page, viewer: string, tipSteps = 0): Promise<void> {
  await host.getByRole('button', { name: 'Device access' }).click();
  const modal = host.getByRole('dialog', { name: MSG.toyAccessTitle });
  await nudge(host, 'Device tip', tipSteps);
  await modal.getByRole('radio', { name: viewer }).check({ timeout: 10_000 });
  await modal.getByRole('button', { name: 'Generate QR' }).click();
  await modal.getByText(MSG.toyWaitingForViewer).waitFor();
}

/** The viewer accepts the offer of `coins` and gets the control panel. */
export async function acceptOffer(viewer: Page, coins: number): Promise<void> {
  const offer = viewer.getByRole('dialog', { name: MSG.toyOfferTitle });
  await offer.getByText(`${coins} Coins`).waitFor({ timeout: 10_000 });
  await offer.getByRole('button', { name: 'Get Access' }).click();
  await viewer.getByRole('region', { name: 'Device control' }).waitFor();
}

/** The host's virtual toy shows `level` for `command` (how fast: bench/toy-commands.ts). */
export async function toyShows(host: Page, command: string, level: number): Promise<void> {
  const meter = host.getByRole('meter', { name: `${command} intensity` });
  await expect.poll(() => meter.getAttribute('aria-valuenow'), { timeout: 5_000 }).toBe(String(level));
  await host.getByRole('list', { name: 'Commands received' }).getByText(`${command} ${level}`).first().waitFor();
}
