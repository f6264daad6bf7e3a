/**
 * Journey: advertiser offers on a live stream. The administrator creates a pre-roll and a banner offer
 * on the offers page (creatives uploaded) and funds their campaigns there with coins from the wallet
 * (advertising is prepaid, decision 0037); broadcaster1 goes live in the default skin (ad selection) and
 * attaches both with 'Update Stream Ads'; viewer2, watching in afterdark (pre-roll ads), sees the
 * pre-roll, skips it after 5 s, then the stream, the banner 5 s later, and clicks it; a chat ad line comes
 * by. viewer3, subscribed to broadcaster1's VIP plan ('no ads'), sees none. When the period's settlement
 * has run, broadcaster1's wallet shows the ad commission.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, describe, expect } from 'vitest';
import * as subscriptionsApi from '../common/api/subscriptions';
import * as walletApi from '../common/api/wallet';
import { AD } from '../common/constants';
import { fill, MSG } from '../common/messages';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { HttpSession } from '../server/testing/http-session';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { DEMO_PASSWORD, signInAt } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { broadcastAs, videoTime } from './support/live';

// Commission settles in periods of 15 s; chat ad lines come every 10 s.
const openAppPage = useAppInBrowser({ media: true, env: () => ({ ADS_SETTLEMENT_SECONDS: '15', ADS_CHAT_INTERVAL_SECONDS: '10' }) });
const step = journeySteps();

const TITLE = 'E2E ads show';
const creatives = mkdtempSync(path.join(os.tmpdir(), 'll-e2e-ads-'));
let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
  rmSync(creatives, { recursive: true, force: true });
});

/** A 728×90 banner picture and an 8-second pre-roll clip with sound. */
async function makeCreatives() {
  const banner = path.join(creatives, 'banner.png');
  await sharp({ create: { width: 728, height: 90, channels: 3, background: '#2a6df0' } })
    .composite([{ input: Buffer.from('<svg width="728" height="90"><text x="24" y="58" font-size="40" font-family="sans-serif" fill="#fff">Spring sale: 20% off</text></svg>') }])
    .png().toFile(banner);
  const clip = path.join(creatives, 'preroll.mp4');
  execFileSync(resolveFfmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=8', '-f', 'lavfi', '-i', 'sine=frequency=660:duration=8',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip]);
  return { banner, clip };
}

async function createOffer(page: Page, fields: { name: string; short: string; type: 'Pre-roll' | 'Banner' | 'Chat'; link: string; file: string; impression: number; click: number; complete?: number }) {
  const form = page.getByRole('form', { name: 'New offer' });
  await form.getByLabel('Name').fill(fields.name);
  await form.getByLabel('Short description').fill(fields.short);
  await form.getByLabel('Type').selectOption({ label: fields.type });
  await form.getByLabel('Rating').selectOption({ label: 'G' });
  await form.getByLabel('Target link').fill(fields.link);
  await form.getByLabel('Per impression').fill(String(fields.impression));
  await form.getByLabel('Per click').fill(String(fields.click));
  if (fields.complete !== undefined) await form.getByLabel('Per completion').fill(String(fields.complete));
  await form.getByLabel('Creative').setInputFiles(fields.file);
  await form.getByRole('button', { name: 'Create offer' }).click();
  await page.getByText('Your offer is created!').first().waitFor({ timeout: 60_000 });
  await page.getByRole('list', { name: 'Your offers' }).getByRole('article', { name: fields.name }).waitFor();
}

/** broadcaster1's VIP plan (priority chat, no pay wall, no ads) and viewer3 subscribed to it, through the calls the subscription pages make. */
async function subscribeToVip(origin: string) {
  const creator = await HttpSession.at(origin).signIn('broadcaster1', DEMO_PASSWORD);
  const { templates } = await creator.call(subscriptionsApi.planTemplates, {});
  const vip = templates.find((x) => x.benefits.no_ads)!;
  const { plan } = await creator.call(subscriptionsApi.planAdd, { template_id: vip.template_id, price: vip.prices[0]!.price, currency: 'CON' });
  const fan = await HttpSession.at(origin).signIn('viewer3', DEMO_PASSWORD);
  const { packages } = await fan.call(walletApi.coinPackages, {});
  const largest = packages.reduce((a, b) => (b.coins > a.coins ? b : a));
  const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2040, cvc: '123', name: 'Viewer Three' };
  await fan.call(walletApi.depositCoins, { package_id: largest.package_id, payment_method: 'card', card });
  await fan.call(subscriptionsApi.subscribe, { plan_id: plan.plan_id, user_id: plan.user_id }, { idempotencyKey: randomUUID() });
}

describe('ads', () => {
  let admin: TestPage;
  let broadcaster: TestPage;
  let viewer: TestPage;
  let streamPath = '';

  step('the administrator creates a pre-roll and a banner offer', async () => {
    const files = await makeCreatives();
    admin = await openAppPage();
    await signInAt(admin.page, 'admin', '/');
    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Offers' }).click();
    const origin = new URL(admin.page.url()).origin;
    await createOffer(admin.page, { name: 'Spring sale video', short: 'Spring sale: watch the collection', type: 'Pre-roll', link: `${origin}/help`, file: files.clip, impression: 2, click: 5, complete: 3 });
    await createOffer(admin.page, { name: 'Spring sale banner', short: 'Spring sale: 20% off everything', type: 'Banner', link: `${origin}/help`, file: files.banner, impression: 1, click: 5 });
    await createOffer(admin.page, { name: 'Spring sale chat', short: 'Spring sale in the shop today', type: 'Chat', link: `${origin}/help`, file: files.banner, impression: 1, click: 5 });
    await screenshot(admin.page, 'ads-offers-page');
  }, 120_000);

  step('the administrator funds the campaigns from the wallet on the offers page', async () => {
    const origin = new URL(admin.page.url()).origin;
    const wallet = await HttpSession.at(origin).signIn('admin', DEMO_PASSWORD);
    const { packages } = await wallet.call(walletApi.coinPackages, {});
    const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2040, cvc: '123', name: 'Admin' };
    await wallet.call(walletApi.depositCoins, { package_id: packages[0]!.package_id, payment_method: 'card', card });
    const offers = admin.page.getByRole('list', { name: 'Your offers' });
    for (const name of ['Spring sale video', 'Spring sale banner', 'Spring sale chat']) {
      const offer = offers.getByRole('article', { name });
      await offer.getByRole('button', { name: MSG.adsFund }).click();
      const dialog = admin.page.getByRole('dialog');
      const coinsField = dialog.getByLabel(MSG.adsFundCoins);
      await coinsField.fill('0');
      await coinsField.blur();
      await dialog.getByText(MSG.coinsNumber).waitFor();
      await coinsField.fill('30');
      await dialog.getByRole('button', { name: MSG.adsFund }).click();
      await dialog.waitFor({ state: 'detached' });
      await offer.getByRole('region', { name: MSG.adsCampaignBalance }).getByText('30 Coins').waitFor();
    }
    await admin.page.getByText(MSG.adsFunded).first().waitFor();
    await screenshot(admin.page, 'ads-offers-funded');
  }, 90_000);

  step('broadcaster1 goes live and attaches both offers to the stream', async () => {
    broadcaster = await openAppPage();
    const onAir = await broadcastAs(broadcaster.page, TITLE);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
    const offers = broadcaster.page.getByRole('list', { name: 'Public offers' });
    // The main site plays no pre-roll: the card says where this one will.
    await offers.getByRole('article', { name: 'Spring sale video' }).getByText(fill(MSG.adsPrerollPlaysIn, { skins: 'AfterDark' })).waitFor();
    for (const name of ['Spring sale video', 'Spring sale banner', 'Spring sale chat']) await offers.getByRole('article', { name }).getByRole('button', { name: 'Select' }).click();
    await broadcaster.page.getByRole('button', { name: MSG.adsUpdateStreamAds }).click();
    await broadcaster.page.getByText(MSG.adsStreamAdsUpdated).first().waitFor();
    await offers.getByRole('article', { name: 'Spring sale banner' }).getByRole('button', { name: 'Remove' }).waitFor();
    await screenshot(broadcaster.page, 'ads-dashboard-selection');
  }, 90_000);

  step('viewer2 in afterdark sees the pre-roll, skips it after 5 s, then the stream plays', async () => {
    viewer = await openAppPage();
    await signInAt(viewer.page, 'viewer2', `/afterdark${streamPath}`);
    const preroll = viewer.page.getByRole('region', { name: 'Pre-roll ad' });
    await preroll.getByRole('timer').waitFor({ timeout: 20_000 });
    await expect.poll(() => preroll.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
    await screenshot(viewer.page, 'ads-preroll');
    await preroll.getByRole('button', { name: MSG.adsSkipAd }).click({ timeout: 15_000 });
    await preroll.waitFor({ state: 'detached' });
    await expect.poll(() => videoTime(viewer.page), { timeout: 20_000 }).toBeGreaterThan(0.5);
  }, 90_000);

  step('the banner shows 5 s into playback; a click opens the offer in a new tab', async () => {
    const banner = viewer.page.getByRole('complementary', { name: 'Banner ad' });
    await banner.waitFor({ timeout: 15_000 });
    await screenshot(viewer.page, 'ads-banner');
    // A strip along the bottom of the player, clear of its middle, on a wide screen and on a phone.
    for (const size of [null, { width: 390, height: 844 }]) {
      if (size) {
        await viewer.page.setViewportSize(size);
        await screenshot(viewer.page, 'ads-banner-phone');
      }
      const [player, ad] = await Promise.all([viewer.page.locator('video').boundingBox(), banner.boundingBox()]);
      expect(ad!.y).toBeGreaterThan(player!.y + player!.height / 2);
    }
    await viewer.page.setViewportSize({ width: 1366, height: 860 });
    const [tab] = await Promise.all([viewer.page.context().waitForEvent('page'), banner.getByRole('link', { name: 'Spring sale: 20% off everything' }).click()]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe('/help');
    await tab.close();
  }, 60_000);

  step('a chat ad line comes by in the chat, marked Sponsored', async () => {
    const line = viewer.page.getByRole('log', { name: 'Chat' }).getByRole('group', { name: 'Chat ad' });
    await line.getByText(MSG.adsSponsored).waitFor({ timeout: 20_000 });
    await line.getByRole('link', { name: 'Spring sale in the shop today' }).waitFor();
    await screenshot(viewer.page, 'ads-chat-line');
  }, 40_000);

  step("viewer3, subscribed to the VIP plan ('no ads'), sees the stream with no ad at all", async () => {
    const origin = new URL(viewer.page.url()).origin;
    await subscribeToVip(origin);
    const fan = await openAppPage();
    await signInAt(fan.page, 'viewer3', `/afterdark${streamPath}`);
    // Played past the banner's moment (AD.bannerDelayMs after the page opened, so sooner than this) and
    // a presentation's round trip more: still nothing.
    await expect.poll(() => videoTime(fan.page), { timeout: 30_000 }).toBeGreaterThan(AD.bannerDelayMs / 1000 + 1.5);
    expect(await fan.page.getByRole('region', { name: 'Pre-roll ad' }).count()).toBe(0);
    expect(await fan.page.getByRole('complementary', { name: 'Banner ad' }).count()).toBe(0);
    await screenshot(fan.page, 'ads-no-ads-subscriber');
  }, 90_000);

  step("broadcaster1's wallet shows the settled ad commission", async () => {
    await broadcaster.page.goto('/user/account');
    // viewer2's pre-roll impression (2; skipped, so not completed), banner impression (1) and click (5), chat
    // line impression (1): 9 coins, in as many settlements as the activity's periods.
    const commission = async () => {
      await broadcaster.page.reload();
      // The history's rows come after the page: viewer3's subscription is always there.
      await broadcaster.page.getByRole('row', { name: /Subscription/ }).waitFor();
      const amounts = await broadcaster.page.getByRole('row', { name: /Ad commission/ }).locator('td:nth-child(2)').allTextContents();
      return amounts.reduce((sum, text) => sum + Number(text.replace(/[^\d]/g, '')), 0);
    };
    await expect.poll(commission, { timeout: 90_000, interval: 5_000 }).toBe(9);
    await screenshot(broadcaster.page, 'ads-wallet-commission');
  }, 120_000);
});
