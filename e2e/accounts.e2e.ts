/** Journeys a and b: sign-up in two steps, sign out, log in again; a guest stopped at the dashboard gate. */
import { describe, expect, it } from 'vitest';
import { MSG } from '../common/messages';
import { DEMO_PASSWORD, expectSystemMessages, fillSignUp, logIn, newUser, userMenu } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';


const openAppPage = useAppInBrowser();

describe('accounts', () => {
  it('signs up (details, then interests), signs out from the user menu and logs back in', async () => {
    const { page, context, errors } = await openAppPage();
    const user = newUser();

    await page.goto('/user/sign-up');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await fillSignUp(page, user);
    await screenshot(page, 'signup-step1');
    await page.getByRole('button', { name: 'Create Account' }).click();

    await page.getByRole('heading', { name: MSG.chooseInterests }).waitFor();
    // Signed in by now: the top bar offers no Log In.
    expect(await page.getByRole('banner').getByRole('link', { name: 'Log In' }).count()).toBe(0);
    const done = page.getByRole('button', { name: 'Done' });
    expect(await done.isDisabled()).toBe(true);
    expect(await page.getByText(MSG.interestsMin).isVisible()).toBe(true);
    const chips = page.getByRole('list', { name: 'Interests' }).getByRole('button');
    for (const i of [0, 2, 4]) await chips.nth(i).click();
    await screenshot(page, 'signup-step2-interests');
    expect(await done.isEnabled()).toBe(true);
    const dismissMessages = expectSystemMessages(page);
    await done.click();

    await page.waitForURL('**/channel/group');
    await dismissMessages();
    await userMenu(page, user.username).waitFor();
    await page.goto('/');
    await page.getByRole('heading', { name: 'Channels', exact: true }).waitFor();
    await page.getByRole('list', { name: 'Channels' }).getByRole('link').first().waitFor();
    await screenshot(page, 'shell-logged-in');

    await userMenu(page, user.username).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL('**/user/login');
    await page.getByRole('link', { name: 'Sign up for Free' }).waitFor();

    await logIn(page, user.username, user.password);
    await page.waitForURL('**/channel/group');
    await userMenu(page, user.username).waitFor();
    expect(await userMenu(page, user.username).textContent()).toContain(user.username);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('tracks the app opening with the landing referral, then the login with the same tracker', async () => {
    const { page, context } = await openAppPage();
    const tracked: Array<{ action: string; referralCode?: string; campaign?: string; tracker?: string }> = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/ajax/tracking/track-event') && r.method() === 'POST') tracked.push(r.postDataJSON() as (typeof tracked)[number]);
    });
    const opened = page.waitForResponse((r) => r.url().endsWith('/ajax/tracking/track-event'));
    await page.goto('/user/login?ref=AGENT7&campaign=spring');
    const { result } = (await (await opened).json()) as { result: { tracker: string } };
    expect(tracked).toEqual([{ action: 'app_opened', referralCode: 'AGENT7', campaign: 'spring' }]);

    // A landing without a referral code in the same browser session sends nothing.
    await page.goto('/user/login');
    const login = page.waitForRequest((r) => r.url().endsWith('/ajax/tracking/track-event'));
    await logIn(page, 'viewer4', DEMO_PASSWORD);
    expect((await login).postDataJSON()).toMatchObject({ action: 'user_login', tracker: result.tracker });
    expect(tracked.map((t) => t.action)).toEqual(['app_opened', 'user_login']);
    await context.close();
  });

  it('shows the login gate to a guest at /dashboard', async () => {
    const { page, context, errors } = await openAppPage();
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: MSG.loginRequired }).waitFor();
    const logIn = page.getByRole('main').getByRole('link', { name: 'Log In' });
    expect(await logIn.getAttribute('href')).toBe(`/user/login?redirect=${encodeURIComponent('/dashboard')}`);
    await screenshot(page, 'guest-dashboard-gate');
    expect(errors).toEqual([]);
    await context.close();
  });
});
