/**
 * Journey: account settings saved (only changes sent), notifications kept, the 18+ switch only where
 * the skin allows it and the landing it gives a login; toasts clear of the Create button.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../common/messages';
import { DEMO_PASSWORD, logIn, signInAt, userMenu } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

const openAppPage = useAppInBrowser();

/** The toast saying `text` and the floating Create button do not cover each other. */
async function expectToastClearOfCreateButton(page: Page, text: string): Promise<void> {
  const toast = page.getByRole('listitem').filter({ hasText: text }).first();
  await toast.waitFor();
  const [t, f] = await Promise.all([toast.boundingBox(), page.getByRole('button', { name: 'Create', exact: true }).boundingBox()]);
  if (!t || !f) throw new Error('the toast or the Create button is not on screen');
  const apart = t.y + t.height <= f.y || f.y + f.height <= t.y || t.x + t.width <= f.x || f.x + f.width <= t.x;
  expect(apart, `toast ${JSON.stringify(t)} over Create ${JSON.stringify(f)}`).toBe(true);
}

/** The link of the base channel named Women. */
async function womenChannelLink(page: Page): Promise<string> {
  const { channels } = (await (await page.request.get('/api/channel/base-group')).json()) as { channels: Array<{ name: string; link: string }> };
  const women = channels.find((c) => c.name === 'Women');
  if (!women) throw new Error('the base group has no Women channel');
  return women.link;
}

/** A 4×4 red PNG. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==';

describe('settings', () => {
  it('saves changed account fields and a notification switch, and shows them after a reload', async () => {
    const { page, context, errors } = await openAppPage();
    await signInAt(page, 'viewer3', '/user/settings');
    const save = page.getByRole('button', { name: 'Save Changes' });
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await save.isDisabled()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Show 18+ streams' }).count()).toBe(0);

    await page.getByLabel('Email', { exact: true }).fill('not-an-address');
    await page.getByText(MSG.emailInvalid).waitFor();
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Email', { exact: true }).fill('viewer3@demo.limelight.example');

    await page.getByLabel('Salutation').selectOption('MRS');
    await page.getByLabel('Full Name').fill('Vera Viewer');
    await page.getByLabel('Description').fill('I watch cooking streams.');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/user/update-user-info'));
    await save.click();
    expect((await sent).postDataJSON()).toMatchObject({
      params: { prefix: 'MRS', name: 'Vera Viewer', description: 'I watch cooking streams.' },
    });
    expect(Object.keys(((await sent).postDataJSON() as { params: object }).params).sort()).toEqual(['description', 'name', 'prefix']);
    await page.getByText(MSG.settingsUpdated).first().waitFor();
    await expectToastClearOfCreateButton(page, MSG.settingsUpdated);
    await screenshot(page, 'settings-toast');
    expect(await save.isDisabled()).toBe(true);

    // A full name, once given, cannot be emptied.
    await page.getByLabel('Full Name').fill('');
    await page.getByText(MSG.fullNameRequired).waitFor();
    expect(await save.isDisabled()).toBe(true);

    const chat = page.getByRole('switch', { name: 'Chat' });
    const before = await chat.getAttribute('aria-checked');
    const stored = page.waitForResponse((r) => r.url().endsWith('/api/user/update-user-preferences'));
    await chat.click();
    expect((await stored).ok()).toBe(true);
    const after = before === 'true' ? 'false' : 'true';
    expect(await chat.getAttribute('aria-checked')).toBe(after);

    const photo = page.getByLabel('Choose a profile photo');
    await photo.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await page.getByText(MSG.notAnImage).first().waitFor();
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/user/upload-avatar'));
    await photo.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(TINY_PNG, 'base64') });
    expect((await uploaded).ok()).toBe(true);
    await page.getByRole('banner').locator('img[src^="/media/avatars/"]').waitFor();

    await page.reload();
    await page.getByLabel('Full Name').waitFor();
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Vera Viewer');
    expect(await page.getByLabel('Salutation').inputValue()).toBe('MRS');
    expect(await page.getByLabel('Description').inputValue()).toBe('I watch cooking streams.');
    await page.getByRole('switch', { name: 'Chat' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Chat' }).getAttribute('aria-checked')).toBe(after);
    await screenshot(page, 'settings');
    await page.getByRole('heading', { name: 'Notifications' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-notifications');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks for the current password before changing the email', async () => {
    const { page, context } = await openAppPage();
    await signInAt(page, 'viewer1', '/user/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    const save = page.getByRole('button', { name: 'Save Changes' });
    // The account form's own field (the Password section below has one too).
    const currentPassword = page.getByRole('form', { name: 'Account settings' }).getByLabel('Current password');
    expect(await currentPassword.count()).toBe(0);
    await page.getByLabel('Email', { exact: true }).fill('viewer1.new@demo.limelight.example');
    await currentPassword.waitFor();
    expect(await save.isDisabled()).toBe(true);
    await currentPassword.fill('not-my-password');
    await save.click();
    await page.getByText(MSG.currentPasswordWrong).first().waitFor();
    await currentPassword.fill(DEMO_PASSWORD);
    await save.click();
    await page.getByText(MSG.settingsUpdated).first().waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Email', { exact: true }).inputValue()).toBe('viewer1.new@demo.limelight.example');
    await context.close();
  });

  it('keeps a toast clear of the Create button on a phone', async () => {
    const { page, context, errors } = await openAppPage({ width: 390, height: 844 });
    await signInAt(page, 'viewer2', '/user/settings');
    const chat = page.getByRole('switch', { name: 'Chat' });
    await chat.click();
    await expectToastClearOfCreateButton(page, MSG.settingsUpdated);
    await screenshot(page, 'settings-toast-narrow');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers the 18+ switch in the adult skin, lands a login on Women with it, and signs out a user who declines the terms', async () => {
    const { page, context } = await openAppPage();
    await signInAt(page, 'viewer4', '/afterdark/user/settings');
    const adult = page.getByRole('switch', { name: 'Show 18+ streams' });
    await adult.waitFor();
    // Enabled once the saved preferences have arrived (a click waits for that).
    await adult.click();
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/user/update-user-preferences'));
    await page.getByRole('button', { name: 'Save Changes' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ params: { stream_show_18plus: true } });
    await page.getByText(MSG.settingsUpdated).first().waitFor();

    // With 18+ streams on, a login goes to the Women channel (spec part 1 §2 Login).
    await userMenu(page, 'viewer4').click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL('**/afterdark/user/login');
    const women = await womenChannelLink(page);
    await logIn(page, 'viewer4', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname + url.search === `/afterdark${women}`);

    await page.goto('/afterdark/user/settings');
    await page.getByRole('switch', { name: 'I accept the Terms of Service' }).click();
    await page.getByText('Saving without accepting the terms signs you out.').waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL('**/afterdark/user/login');
    await context.close();
  });

  it('takes a phone number for text messages, edits the interests, and asks the 18+ question once per account', async () => {
    const { page, context, errors } = await openAppPage();
    await signInAt(page, 'viewer1', '/user/settings');
    const texts = page.getByRole('switch', { name: 'By text message' });
    await texts.waitFor();
    // No number yet: text messages cannot be switched on, and the switch says why.
    expect(await texts.isDisabled()).toBe(true);
    await page.getByText(MSG.phoneNeededForText).waitFor();
    const phone = page.getByLabel('Phone number (optional)');
    await phone.fill('555 123');
    await page.getByText(MSG.phoneInvalid).waitFor();
    expect(await page.getByRole('button', { name: 'Save Changes' }).isDisabled()).toBe(true);
    await phone.fill('+1 555 123 4567');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText(MSG.settingsUpdated).first().waitFor();
    await expect.poll(() => texts.isDisabled()).toBe(false);
    await texts.click();
    await expect.poll(() => texts.getAttribute('aria-checked')).toBe('true');
    await page.reload();
    await expect.poll(() => phone.inputValue()).toBe('+15551234567');

    const interests = page.getByRole('list', { name: 'Interests' }).getByRole('button');
    await interests.first().waitFor();
    const saveInterests = page.getByRole('button', { name: 'Save Interests' });
    for (const i of [0, 1, 2]) if ((await interests.nth(i).getAttribute('aria-pressed')) !== 'true') await interests.nth(i).click();
    await page.getByText('3 selected').waitFor();
    await saveInterests.click();
    await page.getByText(MSG.settingsUpdated).first().waitFor();
    await interests.nth(1).click();
    await page.getByText(MSG.interestsMin).waitFor();
    expect(await saveInterests.isDisabled()).toBe(true);
    await page.reload();
    await expect.poll(() => interests.nth(1).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('heading', { name: 'Interests' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-phone-interests');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Phone number (optional)').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-phone-interests-phone');

    // The 18+ confirmation, given on this browser, is not asked again on another one.
    await page.goto('/afterdark/channel/group');
    const adult = page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: '18+', exact: true });
    await adult.click();
    await page.getByRole('dialog', { name: 'Adults only' }).getByRole('button', { name: 'I am 18 or older' }).click();
    await page.getByText(MSG.noStreamsInChannel).waitFor();
    const other = await openAppPage();
    await signInAt(other.page, 'viewer1', '/afterdark/channel/group');
    await other.page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: '18+', exact: true }).click();
    await other.page.getByText(MSG.noStreamsInChannel).waitFor();
    expect(await other.page.getByRole('dialog', { name: 'Adults only' }).count()).toBe(0);
    expect([...errors, ...other.errors]).toEqual([]);
    await other.context.close();
    await context.close();
  });
});
