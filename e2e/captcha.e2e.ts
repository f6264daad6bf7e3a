/** Journey d: with the captcha on, the invisible altcha proof of work lets a demo account log in. */
import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE } from '../common/constants';
import { MSG } from '../common/messages';
import { DEMO_PASSWORD, expectSystemMessages, fillSignUp, logIn, newUser, userMenu } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';


const openAppPage = useAppInBrowser({ captcha: true });

describe('captcha', () => {
  it('solves the invisible proof of work and logs in', async () => {
    const { page, context, errors } = await openAppPage();
    const challenge = page.waitForResponse((r) => r.url().includes('/api/captcha/challenge') && r.ok());
    await page.goto('/user/login?redirect=%2Fuser%2Fsettings');
    await challenge;
    expect(await page.locator('altcha-widget').count()).toBe(1);
    await screenshot(page, 'login-captcha');

    const loginRequest = page.waitForRequest((r) => r.url().endsWith('/api/user/user-login'));
    const dismissMessages = expectSystemMessages(page);
    await logIn(page, 'viewer1', DEMO_PASSWORD);
    const sent = (await loginRequest).postDataJSON() as { altcha?: string };
    expect(typeof sent.altcha).toBe('string');
    expect(sent.altcha?.length).toBeGreaterThan(20);

    await page.waitForURL('**/user/settings');
    await dismissMessages();
    await userMenu(page, 'viewer1').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets the owner in after a run of wrong passwords: the browser passes the longer check by itself', async () => {
    const { page, context, errors } = await openAppPage();
    await page.goto('/user/login?redirect=%2Fuser%2Fsettings');
    for (let i = 0; i < LOGIN_THROTTLE.perAccount; i++) {
      await logIn(page, 'viewer4', `not-the-password-${i}`);
      await page.getByText(MSG.invalidCredentials).waitFor();
    }
    const strongChallenge = page.waitForResponse((r) => r.url().includes('/api/captcha/challenge?strength=strong') && r.ok());
    const dismissMessages = expectSystemMessages(page);
    await logIn(page, 'viewer4', DEMO_PASSWORD);
    await strongChallenge;
    await page.waitForURL('**/user/settings', { timeout: 30_000 });
    await dismissMessages();
    await userMenu(page, 'viewer4').waitFor();
    await screenshot(page, 'login-after-strong-proof');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signs up with the captcha on, after a refused first try used up a payload', async () => {
    const { page, context, errors } = await openAppPage();
    await page.goto('/afterdark/user/sign-up');
    await fillSignUp(page, { ...newUser(), username: 'viewer1' });
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText(MSG.usernameTaken).waitFor();

    await page.getByLabel('Username', { exact: true }).fill(newUser().username);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: MSG.chooseInterests }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
