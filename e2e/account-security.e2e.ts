/**
 * Journey: change the password in settings (the current one required), then delete the account:
 * the consequences shown, the password asked, signed out, the old login refused, the name free again.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../common/messages';
import { logIn, newUser, signInAt, type NewUser } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

const openAppPage = useAppInBrowser();

/** Signs `user` up through the API (the sign-up pages have their own journey). */
async function register(page: Page, user: NewUser): Promise<number> {
  const { token } = (await (await page.request.get('/api/csrf-token')).json()) as { token: string };
  const res = await page.request.post('/api/user/user-register', {
    headers: { 'x-csrf-token': token },
    data: { username: user.username, email: user.email, password: user.password, birthday: '15-06-1995', country: 'CA', terms_accepted: true },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.request.post('/api/user/logout', { headers: { 'x-csrf-token': token }, data: {} });
  return ((await res.json()) as { user_id: number }).user_id;
}

describe('account security', () => {
  it('changes the password, then deletes the account and frees its name', async () => {
    const { page, errors } = await openAppPage();
    const user = newUser();
    await page.goto('/');
    await register(page, user);
    await signInAt(page, user.username, '/user/settings', user.password);

    // Every switch is named by its label.
    expect(await page.getByRole('switch', { name: 'Live streams' }).count()).toBe(1);
    expect(await page.getByRole('switch', { name: 'By email' }).count()).toBe(1);

    const passwordForm = page.getByRole('form', { name: 'Change password' });
    // On a phone the two sections stack and stay inside the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await passwordForm.scrollIntoViewIfNeeded();
    const box = await page.getByRole('button', { name: 'Delete Account' }).boundingBox();
    expect(box && box.x + box.width <= 390).toBe(true);
    await screenshot(page, 'settings-security-phone');
    await page.setViewportSize({ width: 1366, height: 860 });
    await passwordForm.getByLabel('Current password').fill('not-my-password');
    await passwordForm.getByLabel('New password', { exact: true }).fill('a-brand-new-secret');
    await passwordForm.getByLabel('Confirm new password').fill('a-brand-new-secret');
    await passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await passwordForm.getByText(MSG.currentPasswordWrong).waitFor();
    await passwordForm.getByLabel('Current password').fill(user.password);
    await passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText(MSG.passwordChanged).first().waitFor();
    await passwordForm.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-password-changed');
    expect(await passwordForm.getByLabel('Current password').inputValue()).toBe('');

    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText('archived for up to 3 months').waitFor();
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();
    await dialog.getByText(MSG.currentPasswordRequired).waitFor();
    await dialog.getByLabel('Your password').fill(user.password);
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();
    await dialog.getByText(MSG.currentPasswordWrong).waitFor();
    await screenshot(page, 'settings-delete-confirm');
    await dialog.getByLabel('Your password').fill('a-brand-new-secret');
    await dialog.getByRole('button', { name: 'Delete My Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText(MSG.accountDeleted).first().waitFor();
    await page.getByRole('banner').getByRole('link', { name: 'Log In' }).waitFor();
    await screenshot(page, 'settings-account-deleted');

    await page.goto('/user/login');
    await logIn(page, user.username, 'a-brand-new-secret');
    await page.getByText(MSG.invalidCredentials).waitFor();

    // The name and address are free: a new person signs up with them.
    const again = await register(page, { ...user, password: 'someone-else-now' });
    expect(again).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
