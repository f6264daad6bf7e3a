/** Journey c: the four skins are told apart by route prefix and look different. */
import { describe, expect, it } from 'vitest';
import { SKINS, SKIN_IDS } from '../common/skins';
import { screenshot, useAppInBrowser } from './support/browser';


const openAppPage = useAppInBrowser();

describe('skins', () => {
  it('shows each skin with its own name, labels and accent colour', async () => {
    const { page, context, errors } = await openAppPage();
    const accents = new Map<string, string>();

    for (const id of SKIN_IDS) {
      const skin = SKINS[id];
      await page.goto(skin.prefix || '/');
      await page.getByRole('heading', { level: 1, name: skin.name }).waitFor();
      await page.getByRole('list', { name: 'Channels' }).getByRole('link').first().waitFor();
      await expect.poll(() => page.title()).toBe(skin.name);
      expect(await page.getByRole('banner').getByRole('link', { name: skin.labels.getCoins }).isVisible()).toBe(true);
      accents.set(id, await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-accent').trim()));
      await screenshot(page, `skin-${id}`);
    }

    expect(new Set(accents.values()).size).toBe(SKIN_IDS.length);
    for (const id of SKIN_IDS) expect(accents.get(id)).toBe(SKINS[id].tokens['--color-accent']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
