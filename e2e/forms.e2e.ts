/** Form behaviour: the spec's validation messages, server refusals shown where they belong, skin notices. */
import { describe, expect, it } from 'vitest';
import { MSG, fill } from '../common/messages';
import { SEARCH_MIN_CHARS } from '../common/constants';
import { DEMO_PASSWORD, fillSignUp, logIn, newUser } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';

let tab: TestPage;

const openAppPage = useAppInBrowser();

async function freshPage(): Promise<TestPage> {
  await tab?.context.close();
  tab = await openAppPage();
  return tab;
}

describe('login form', () => {
  it('says what is missing, then shows the server message for a wrong password', async () => {
    const { page, errors } = await freshPage();
    await page.goto('/user/login');
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByText(MSG.usernameOrEmailRequired).waitFor();
    await page.getByText(MSG.passwordRequired).waitFor();
    expect(await page.getByLabel('Remember me').isChecked()).toBe(true);

    await logIn(page, '  viewer1  ', 'not-the-password');
    await page.getByRole('alert').filter({ hasText: MSG.invalidCredentials }).waitFor();
    await page.getByLabel('Show password').click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await screenshot(page, 'login-errors');
    expect(errors).toEqual([]);
  });

  it('sends a login made before the page knows whether the captcha is on, once it does', async () => {
    const { page, errors } = await freshPage();
    // The app config answers late, as on a busy server: Enter must not be swallowed by a disabled button.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/meta/app-config', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/user/login?redirect=%2Fuser%2Fprofile');
    await page.getByLabel('Username or Email').fill('viewer1');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    await expect.poll(() => page.getByRole('button', { name: 'Log In', exact: true }).getAttribute('aria-busy')).toBe('true');
    release();
    await page.waitForURL((url) => url.pathname === '/user/profile');
    expect(errors).toEqual([]);
  });

  it('shows the account-migration notice instead of Facebook in the personas skin', async () => {
    const { page } = await freshPage();
    await page.goto('/personas/user/login');
    await page.getByRole('note').getByText('your account was migrated').waitFor();
    expect(await page.getByRole('link', { name: 'Reset Password' }).getAttribute('href')).toBe('/personas/user/forgot-password');
    expect(await page.getByRole('link', { name: /Facebook/ }).count()).toBe(0);
    await screenshot(page, 'login-personas');
  });
});

describe('sign-up form', () => {
  it('checks every field with the spec messages and shows a taken username under its field', async () => {
    const { page, errors } = await freshPage();
    await page.goto('/miitv/user/sign-up');
    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [MSG.usernameRequired, MSG.emailRequired, MSG.passwordRequired, MSG.birthdayRequired, MSG.countryRequired, MSG.termsRequired]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await screenshot(page, 'signup-errors');

    const user = { ...newUser(), username: 'viewer1' };
    await fillSignUp(page, user);
    await page.getByLabel('Confirm Password', { exact: true }).fill('something-else');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText(MSG.passwordsDoNotMatch).waitFor();

    await page.getByLabel('Confirm Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText(MSG.usernameTaken).waitFor();
    const username = page.getByLabel('Username', { exact: true });
    expect(await username.getAttribute('aria-invalid')).toBe('true');
    expect(errors).toEqual([]);
  });
});

describe('search', () => {
  it('asks for at least three characters, then searches in the current skin', async () => {
    const { page } = await freshPage();
    await page.goto('/afterdark');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('ab');
    await search.press('Enter');
    await page.getByText(fill(MSG.searchMin, { n: SEARCH_MIN_CHARS })).waitFor();
    await search.fill('abc');
    await search.press('Enter');
    await page.waitForURL('**/afterdark/channel/search?search=abc');
  });
});
