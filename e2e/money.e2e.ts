/**
 * Journey: the broadcaster puts a price on the live stream from Get Paid (Broadcast setup then shows
 * it locked); a viewer buys coins with a test card (declined first), meets a paid stream's pay wall,
 * tips the minimum, the wall lifts and the video plays; the broadcaster sees the tip line and the
 * tip animation; a later tip goes straight through; a viewer without coins is told to get some.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { signInAt } from './support/app';
import { journeySteps, openTab, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, broadcastAs, videoTime } from './support/live';
import { TIP_DEBOUNCE_MS } from '../web/features/tips/tip-flow';

const openAppPage = useAppInBrowser({ media: true });
/** One journey: each step builds on the one before (see journeySteps). */
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'E2E paid show';
/** The stream's price: what a viewer must tip before the video plays. */
const PRICE = 30;
/** A tip of an amount the quick list does not offer, and the message that goes with it (markup stays text). */
const CUSTOM_TIP = 15;
const TIP_NOTE = 'Loved the <b>show</b>!';
const DESKTOP = { width: 1366, height: 860 };
const PHONE = { width: 390, height: 844 };

const chatLog = (page: Page) => page.getByRole('log', { name: 'Chat' });
const payWall = (page: Page) => page.getByRole('region', { name: 'Pay wall' });

/** The chat line saying `text`, sent by `name`. */
function chatLine(page: Page, name: string, text: string) {
  return chatLog(page)
    .locator('div')
    .filter({ has: page.getByText(name, { exact: true }) })
    .filter({ has: page.getByText(text, { exact: true }) })
    .last();
}

/** The owner's 3 s "tip received" indicator over the player. */
const tipReceived = (page: Page, coins: number) => page.locator('#stream-chat-overlay').getByRole('status').filter({ hasText: `tipped you ${coins} Coins!` });
/**
 * Starts recording every coin burst label ("viewer1 +30 Coins") put over the player. The burst lives
 * 2.2 s: a page starved of frames on a loaded machine can sleep through it, but a mutation observer hears
 * every label added. Resolves to a wait for `name`'s burst of `coins`, then for the label fully shown
 * (past the first 15 % of its time) if it still is, for the screenshot.
 */
async function watchBursts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    Object.assign(window, { burstsSeen: seen });
    new MutationObserver((records) => {
      for (const node of records.flatMap((r) => [...r.addedNodes])) {
        if (!(node instanceof HTMLElement)) continue;
        for (const label of [node, ...node.querySelectorAll('[class*="burstLabel"]')]) {
          if (label.matches('#stream-chat-overlay [class*="burstLabel"]')) seen.push(label.textContent ?? '');
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  return async (name: string, coins: number) => {
    const label = `${name} +${coins} Coins`;
    await page.waitForFunction((text) => (window as unknown as { burstsSeen: string[] }).burstsSeen.some((seen) => seen.includes(text)), label, { timeout: 15_000, polling: 100 });
    await page
      .waitForFunction(
        (text) => [...document.querySelectorAll('#stream-chat-overlay [class*="burstLabel"]')].some((l) => l.textContent?.includes(text) && Number(getComputedStyle(l).opacity) > 0.9),
        label,
        { timeout: 2_000, polling: 'raf' },
      )
      .catch(() => undefined);
  };
}

async function waitForPlaying(page: Page) {
  await badge(page, 'LIVE').waitFor();
  const start = await videoTime(page);
  await expect.poll(() => videoTime(page), { timeout: 25_000 }).toBeGreaterThan(start + 0.5);
}

/** Fills the deposit page's card fields (Credit Card chosen). */
async function fillCard(page: Page, number: string) {
  const next = String(new Date().getFullYear() + 2);
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry month').selectOption('12');
  await page.getByLabel('Expiry year').selectOption(next);
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Vera Viewer');
}

describe('coins, the pay wall and tips', () => {
  let broadcaster: TestPage;
  /** The broadcaster's second tab: the stream page, as its owner sees it (opened before any tip). */
  let ownerView: Page;
  let viewer1: TestPage;
  let viewer2: TestPage;
  let streamPath = '';

  step('goes live and puts a price on the stream from Get Paid; the owner watches their stream page', async () => {
    broadcaster = await openAppPage();
    const { page } = broadcaster;
    const onAir = await broadcastAs(page, TITLE);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;

    await page.getByRole('button', { name: 'Get Paid' }).click();
    const getPaid = page.getByRole('dialog', { name: 'Set Stream Payment' });
    await getPaid.getByText('Free', { exact: true }).waitFor();
    const price = getPaid.getByLabel('Price (coins)');
    const slider = getPaid.getByRole('slider', { name: 'Price in coins' });
    const save = getPaid.getByRole('button', { name: 'Save' });
    expect(await price.inputValue()).toBe('0');
    // Nothing to save until the price changes.
    expect(await save.isDisabled()).toBe(true);

    // Sliding moves in steps of 10 and writes the price into the field.
    await slider.focus();
    for (let notch = 0; notch < PRICE / 10; notch += 1) await page.keyboard.press('ArrowRight');
    expect(await price.inputValue()).toBe(String(PRICE));
    expect(await slider.getAttribute('aria-valuenow')).toBe(String(PRICE));

    // Typing: the spec's words for a price off the step, then a good one (the slider follows).
    await price.fill(String(PRICE + 5));
    await getPaid.getByText(MSG.tipMultipleOf10, { exact: true }).waitFor();
    expect(await save.isDisabled()).toBe(true);
    await price.fill(String(PRICE + 10));
    expect(await slider.getAttribute('aria-valuenow')).toBe(String(PRICE + 10));
    await price.fill(String(PRICE));
    expect(await getPaid.getByText(MSG.tipMultipleOf10).count()).toBe(0);
    expect(await slider.getAttribute('aria-valuenow')).toBe(String(PRICE));
    await screenshot(page, 'money-get-paid');

    await save.click();
    await getPaid.waitFor({ state: 'detached' });
    await page.getByText(`Stream price set to ${PRICE} Coins.`).first().waitFor();

    // Opened again, the paid stream's price is locked until the broadcaster asks to change it.
    await page.getByRole('button', { name: 'Get Paid' }).click();
    await getPaid.getByText(`${PRICE} Coins per viewer`, { exact: true }).waitFor();
    expect(await getPaid.getByLabel('Price (coins)').isDisabled()).toBe(true);
    await getPaid.getByRole('button', { name: 'Change price' }).waitFor();
    await page.keyboard.press('Escape');
    await getPaid.waitFor({ state: 'detached' });

    // The owner is never walled from their own stream.
    ownerView = await openTab(broadcaster);
    await ownerView.goto(streamPath);
    await ownerView.getByRole('heading', { name: TITLE }).waitFor();
    await waitForPlaying(ownerView);
    expect(await payWall(ownerView).count()).toBe(0);
  });

  step("shows a paid stream's tip amount locked in Broadcast setup, and saving the setup leaves the price alone", async () => {
    const { page } = broadcaster;
    await page.getByRole('button', { name: 'Broadcast setup' }).click();
    const setup = page.getByRole('dialog', { name: 'Broadcast setup' });
    const tip = setup.getByLabel('Tip amount (coins)');
    await tip.waitFor();
    expect(await tip.inputValue()).toBe(String(PRICE));
    expect(await tip.isDisabled()).toBe(true);
    const slider = setup.getByRole('slider', { name: 'Price in coins' });
    expect(await slider.getAttribute('aria-valuenow')).toBe(String(PRICE));
    expect(await slider.getAttribute('data-disabled')).not.toBeNull();
    await setup.getByText(`Your stream is paid: ${PRICE} Coins per viewer. Change the price from Get Paid on the dashboard.`).waitFor();
    // The dialog scrolls on this viewport: shot with the payment part and Save in view.
    const save = setup.getByRole('button', { name: 'Save' });
    await save.scrollIntoViewIfNeeded();
    await screenshot(page, 'money-setup-paid');

    const sent = page.waitForRequest((r) => r.url().endsWith('/api/streams/update-stream-info'));
    await save.click();
    const body = (await sent).postDataJSON() as { data: Record<string, unknown> };
    expect(body.data).not.toHaveProperty('tip_viewer_min_amount');
    await setup.waitFor({ state: 'detached' });
  });

  step('buys coins: a declined card first, then the test card; the wallet shows the balance and the line', async () => {
    viewer1 = await openAppPage();
    const { page } = viewer1;
    await signInAt(page, 'viewer1', '/');
    await page.getByRole('banner').getByRole('link', { name: 'Get Coins' }).click();
    await page.waitForURL('**/user/account/deposit-coins');
    await page.getByRole('heading', { name: 'Buy Coins' }).waitFor();
    await page.getByText('Balance: 0 Coins', { exact: true }).waitFor();

    // The defaults: the first package chosen; no saved card, so Credit Card; PayPal and Bitcoin shown off, with the reason.
    const packages = page.getByRole('radiogroup', { name: 'Coin packages' });
    await page.getByRole('radio', { name: /Credit Card/, checked: true }).waitFor();
    expect(await packages.getByRole('radio', { checked: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Buy 100 Coins for $5.00' }).waitFor();
    for (const name of [/PayPal/, /Bitcoin/]) {
      const radio = page.getByRole('radio', { name });
      expect(await radio.isDisabled()).toBe(true);
    }
    expect(await page.getByRole('radiogroup', { name: 'Payment method' }).getByText(MSG.paymentMethodUnavailable).count()).toBe(2);
    await screenshot(page, 'money-deposit-defaults');
    await packages.locator('label').filter({ hasText: '$5.00' }).click();
    expect(await packages.getByRole('radio', { checked: true }).count()).toBe(1);
    await page.getByRole('radio', { name: /Credit Card/ }).check();
    await fillCard(page, '4000 0000 0000 0002');
    const buy = page.getByRole('button', { name: 'Buy 100 Coins for $5.00' });
    await buy.click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'money-deposit-declined');

    // The fields keep what was typed: only the number changes.
    expect(await page.getByLabel('Name on card').inputValue()).toBe('Vera Viewer');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buy.click();
    const success = page.getByRole('status').filter({ hasText: 'added to your wallet' });
    await success.waitFor({ timeout: 15_000 });
    await success.getByText('100 Coins', { exact: true }).waitFor();
    await success.getByText('New balance: 100 Coins').waitFor();
    await page.getByText('Balance: 100 Coins', { exact: true }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'declined' }).count()).toBe(0);
    await screenshot(page, 'money-deposit-success');

    await page.getByRole('link', { name: 'Go to Wallet' }).click();
    await page.waitForURL((url) => url.pathname === '/user/account');
    const coins = page.getByRole('list', { name: 'Balances' }).getByRole('listitem').filter({ hasText: 'Coins' }).first();
    await coins.getByText('100 Coins').waitFor();
    const line = page.getByRole('row').filter({ hasText: 'Coins bought' });
    await line.getByText('+100 Coins').waitFor();
    // Only the successful charge moved anything.
    expect(await page.getByRole('row').filter({ hasText: 'Coins bought' }).count()).toBe(1);
    await screenshot(page, 'money-wallet');
  });

  step('meets the pay wall, tips the minimum after confirming, and the video plays; the owner sees the tip', async () => {
    const { page } = viewer1;
    await page.goto(streamPath);
    const wall = payWall(page);
    await wall.waitFor();
    await wall.getByText(`Tip ${PRICE} Coins to broadcaster1 to watch.`).waitFor();
    await wall.getByText('Your balance: 100 Coins').waitFor();
    expect(await page.locator('video').count()).toBe(0);
    await screenshot(page, 'money-pay-wall');

    await wall.getByRole('button', { name: `Tip ${PRICE} Coins` }).click();
    const confirm = page.getByRole('dialog', { name: 'Send a Tip' });
    await confirm.waitFor();
    await confirm.getByText(`${PRICE} Coins`, { exact: true }).waitFor();
    await screenshot(page, 'money-tip-confirm');

    // Watch both pages from before the tip: the owner's indicator lives 3 s, the burst 2.2 s, the
    // tipper's toast the skin's toast time; each wait runs from the start, none after another's end.
    const received = tipReceived(ownerView, PRICE);
    const seen = received.waitFor({ timeout: 15_000 });
    const toast = page.getByText(`You tipped ${PRICE} Coins!`).first().waitFor({ timeout: 15_000 });
    const burst = (await watchBursts(ownerView))('viewer1', PRICE);
    await confirm.getByRole('button', { name: 'Confirm Tip' }).click();
    // Shot as soon as the label has faded in.
    await burst;
    await screenshot(ownerView, 'money-owner-tip-received', { animations: 'allow' });
    await Promise.all([seen, toast]);
    await chatLine(ownerView, 'viewer1', `Sent ${PRICE} Coins!!`).waitFor();
    // The indicator goes after 3 s.
    await received.waitFor({ state: 'detached', timeout: 6_000 });

    await confirm.waitFor({ state: 'detached' });
    await wall.waitFor({ state: 'detached', timeout: 15_000 });
    await waitForPlaying(page);
    // The tipper's chat subscribes once the wall is paid, after the TIP went out: the history brings the line.
    await chatLine(page, 'viewer1', `Sent ${PRICE} Coins!!`).waitFor();
    // The viewer sees no "tipped you" indicator: that is the owner's.
    expect(await tipReceived(page, PRICE).count()).toBe(0);
    await screenshot(page, 'money-wall-lifted-playing');
    await screenshot(ownerView, 'money-owner-tip-line');
  });

  step('tips again from the tip selector without a confirm dialog', async () => {
    const { page } = viewer1;
    const tip = page.getByRole('button', { name: 'Tip', exact: true });
    await tip.hover();
    const amounts = page.getByRole('dialog').filter({ hasText: 'Send a tip' });
    await amounts.waitFor();
    const seen = tipReceived(ownerView, 10).waitFor({ timeout: 15_000 });
    await amounts.getByRole('button', { name: '10 Coins' }).click();
    await seen;
    expect(await page.getByRole('dialog', { name: 'Send a Tip', exact: true }).count()).toBe(0);
    await chatLine(ownerView, 'viewer1', 'Sent 10 Coins!!').waitFor();
    await chatLine(page, 'viewer1', 'Sent 10 Coins!!').waitFor();

    // The chat input has its own tip button; the viewers see the top supporters, brought up to date by the tip.
    await page.getByRole('region', { name: 'Live chat' }).getByRole('button', { name: 'Tip the streamer' }).waitFor();
    const supporters = page.getByRole('list', { name: 'Top supporters' });
    await supporters.getByText('viewer1').waitFor();
    await supporters.scrollIntoViewIfNeeded();
    await screenshot(page, 'money-viewer-supporters');
    // The share wall lists the spec's networks.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const networks = page.getByRole('dialog', { name: 'Share this stream' }).getByRole('list', { name: 'Share on' });
    for (const name of ['Facebook', 'Reddit', 'WhatsApp', 'Skype', 'Email', 'SMS', 'Pinterest', 'Weibo']) await networks.getByRole('link', { name, exact: true }).waitFor();
    await screenshot(page, 'money-share-networks');
    await page.keyboard.press('Escape');
    await networks.waitFor({ state: 'detached' });

    // Any other whole amount (the tip rules checked as typed), with a message the broadcaster reads in the chat.
    await tip.hover();
    await amounts.waitFor();
    const other = amounts.getByRole('form', { name: 'Other amount' });
    await other.getByLabel('Other amount').fill('2.5');
    await other.getByRole('button', { name: 'Send Tip' }).click();
    await other.getByText(MSG.coinsWhole).waitFor();
    await other.getByLabel('Other amount').fill(String(CUSTOM_TIP));
    await other.getByLabel('Message (optional)').fill(TIP_NOTE);
    await screenshot(page, 'money-tip-custom');
    // Tips closer than the debounce to the previous click are dropped (part 2 §9): a person takes longer.
    await page.waitForTimeout(TIP_DEBOUNCE_MS);
    await other.getByRole('button', { name: 'Send Tip' }).click();
    // The chat line stays (the 3 s indicator was checked with the tips before).
    await chatLine(ownerView, 'viewer1', `Sent ${CUSTOM_TIP} Coins!! “${TIP_NOTE}”`).waitFor({ timeout: 20_000 });
    await screenshot(ownerView, 'money-tip-message-owner');

    await page.goto('/user/account');
    const coins = page.getByRole('list', { name: 'Balances' }).getByRole('listitem').filter({ hasText: 'Coins' }).first();
    await coins.getByText(`${100 - PRICE - 10 - CUSTOM_TIP} Coins`).waitFor();
    const tips = page.getByRole('row').filter({ hasText: 'Tip' }).filter({ hasText: 'broadcaster1' });
    await tips.filter({ hasText: `−${PRICE} Coins` }).waitFor();
    await tips.filter({ hasText: '−10 Coins' }).waitFor();
    await tips.filter({ hasText: `−${CUSTOM_TIP} Coins` }).waitFor();
  });

  step("shows an administrator the broadcaster's earnings in the report modal, net of the platform fee", async () => {
    const admin = await openAppPage();
    await signInAt(admin.page, 'admin', streamPath);
    await admin.page.getByRole('button', { name: 'Report' }).click();
    const report = admin.page.getByRole('dialog', { name: 'Report Stream' });
    const earnings = report.getByRole('region', { name: 'Earnings of @broadcaster1' });
    // Tips of 30, 10 and 15 coins, less the 20 % platform fee (rounded up per tip).
    await earnings.getByText(`${PRICE + 10 + CUSTOM_TIP - Math.floor(PRICE / 5) - 2 - Math.ceil(CUSTOM_TIP / 5)} Coins`).first().waitFor();
    await screenshot(admin.page, 'money-admin-earnings');
    expect(admin.errors).toEqual([]);
    await admin.context.close();
  });

  step('tells a viewer without coins that the tip failed, with a way to the wallet', async () => {
    viewer2 = await openAppPage();
    const { page } = viewer2;
    await signInAt(page, 'viewer2', streamPath);
    const wall = payWall(page);
    await wall.waitFor();
    await wall.getByText(`You need ${PRICE} Coins more.`).waitFor();

    await page.setViewportSize(PHONE);
    await wall.getByRole('button', { name: `Tip ${PRICE} Coins` }).waitFor();
    await screenshot(page, 'money-pay-wall-narrow');
    await page.setViewportSize(DESKTOP);

    await wall.getByRole('button', { name: `Tip ${PRICE} Coins` }).click();
    const confirm = page.getByRole('dialog', { name: 'Send a Tip' });
    await confirm.getByRole('button', { name: 'Confirm Tip' }).click();
    const failure = page.getByRole('dialog', { name: MSG.tipFailureTitle });
    await failure.waitFor({ timeout: 15_000 });
    await failure.getByText(MSG.notEnoughCoinsForTip).waitFor();
    const wallet = failure.getByRole('link', { name: 'Wallet' });
    expect(await wallet.getAttribute('href')).toBe('/user/account/deposit-coins');
    await failure.getByRole('link', { name: 'Get more coins' }).waitFor();
    await screenshot(page, 'money-tip-failure');

    await failure.getByRole('button', { name: 'Cancel' }).click();
    await failure.waitFor({ state: 'detached' });
    await wall.waitFor();

    expect([...broadcaster.errors, ...viewer1.errors, ...viewer2.errors]).toEqual([]);
    await Promise.all([broadcaster.context.close(), viewer1.context.close(), viewer2.context.close()]);
  });
});
