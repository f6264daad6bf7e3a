/** Journey: forgot password in five steps, the code read from the outbox by an administrator. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../common/messages';
import { expectSystemMessages, logIn, signInAt, userMenu } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

const openAppPage = useAppInBrowser();

/** The newest recovery code mailed to `email`, as an administrator reads it at /dev/outbox. */
async function readCodeFromOutbox(admin: Page, email: string): Promise<string> {
  await admin.getByRole('button', { name: 'Refresh' }).click();
  const row = admin.getByRole('row').filter({ hasText: email }).first();
  await row.waitFor();
  const code = /\b(\d{6})\b/.exec((await row.textContent()) ?? '')?.[1];
  if (!code) throw new Error(`no recovery code in the mail to ${email}`);
  return code;
}

const boxValues = (page: Page) => page.getByRole('group', { name: 'Recovery code' }).getByRole('textbox').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value).join(''));

describe('password recovery', () => {
  it('resets a password with the mailed code and logs in with the new one', async () => {
    const { page, context, errors } = await openAppPage();
    const newPassword = 'a-brand-new-secret';

    await page.goto('/user/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(MSG.usernameOrEmailRequired).waitFor();
    await page.getByLabel('Username or Email').fill('viewer2');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { name: 'Recover Your Account' }).waitFor();
    expect(await page.getByText(/^v\*+@/).textContent()).not.toContain('viewer2@');
    await page.getByRole('button', { name: 'Send Code' }).click();
    await page.getByRole('heading', { name: MSG.recoveryCodeSent }).waitFor();

    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.getByText(MSG.recoveryCodeRequired).waitFor();

    // An administrator reads the mail in another browser.
    const admin = await openAppPage();
    await signInAt(admin.page, 'admin', '/dev/outbox');
    const code = await readCodeFromOutbox(admin.page, 'viewer2@demo.limelight.example');
    expect(await admin.page.getByRole('cell', { name: code, exact: false }).count()).toBeGreaterThan(0);
    await screenshot(admin.page, 'dev-outbox');
    await admin.context.close();

    // Typing moves from box to box; Backspace in an empty box goes back one.
    await page.getByLabel('Digit 1 of 6').click();
    await page.keyboard.type(code);
    expect(await boxValues(page)).toBe(code);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect(await boxValues(page)).toBe(code.slice(0, 4));
    await page.keyboard.type(code.slice(4));
    expect(await boxValues(page)).toBe(code);
    await screenshot(page, 'recovery-code');
    await page.getByRole('button', { name: 'Verify Code' }).click();

    await page.getByRole('heading', { name: MSG.recoveryNewPassword }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm Password', { exact: true }).fill('something-else');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await page.getByText(MSG.passwordsDoNotMatch).waitFor();
    await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Save Password' }).click();

    await page.getByRole('heading', { name: MSG.recoverySuccess }).waitFor();
    await screenshot(page, 'recovery-success');
    await page.getByRole('link', { name: 'Done' }).click();
    await page.waitForURL('**/user/login');
    // The welcome message opens over the page after a sign-in: close it before reading the top bar.
    const dismissMessages = expectSystemMessages(page);
    await logIn(page, 'viewer2', newPassword);
    await page.waitForURL('**/channel/group');
    await dismissMessages();
    await userMenu(page, 'viewer2').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the skin prefix and shows a wrong code inline', async () => {
    const { page, context } = await openAppPage();
    await page.goto('/miitv/user/forgot-password');
    await page.getByLabel('Username or Email').fill('viewer3');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Send Code' }).click();
    await page.getByLabel('Digit 1 of 6').click();
    await page.keyboard.type('000000');
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.getByText(MSG.recoveryCodeInvalid).waitFor();
    expect(await page.getByRole('link', { name: 'Log In' }).last().getAttribute('href')).toBe('/miitv/user/login');
    await context.close();
  });
});
