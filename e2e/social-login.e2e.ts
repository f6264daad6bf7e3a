/** Journey: social sign-up through a real OpenID provider standing in for Google, then "More Info Needed" and interests. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../common/messages';
import { startTestOidcProvider } from '../server/testing/oidc-provider';
import type { TestOidcProvider } from '../server/testing/oidc-provider';
import { expectSystemMessages, userMenu } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';

let provider: TestOidcProvider;
// Registered before useAppInBrowser's hook: the provider runs before the server reads its address.
beforeAll(async () => {
  provider = await startTestOidcProvider({ account: { sub: 'g-1001', email: 'sam.social@example.com', email_verified: true, name: 'Sam Social' } });
});
afterAll(() => provider?.close());

const openAppPage = useAppInBrowser({ env: () => provider.env('google') });

describe('social sign-in', () => {
  it('signs up a new Google identity: More Info Needed, interests, signed in; the next sign-in is direct', async () => {
    const { page, context, errors } = await openAppPage();
    await page.goto('/user/login');
    await page.getByRole('link', { name: 'Continue with Google' }).click();

    await page.getByRole('heading', { name: MSG.moreInfoNeeded }).waitFor();
    // The ticket was read, and the address (and its history entry) no longer carries it.
    const address = new URL(page.url());
    expect(address.pathname).toBe('/user/login');
    expect(address.search).toBe('');
    await page.getByText('sam.social@example.com').waitFor();
    const username = page.getByLabel('Username', { exact: true });
    expect(await username.inputValue()).toMatch(/^samsocial/);
    await page.getByRole('button', { name: 'Continue' }).click();
    for (const message of [MSG.birthdayRequired, MSG.countryRequired, MSG.termsRequired]) await page.getByText(message).waitFor();

    await username.fill('sam_social');
    await page.getByLabel('Day').selectOption('3');
    await page.getByLabel('Month').selectOption('04');
    await page.getByLabel('Year').selectOption('1998');
    await page.getByLabel('Country').selectOption({ label: 'Canada' });
    await page.getByLabel(/I accept the/).check();
    await screenshot(page, 'social-more-info');
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('heading', { name: MSG.chooseInterests }).waitFor();
    await page.getByRole('button', { name: 'Skip' }).waitFor();
    const chips = page.getByRole('list', { name: 'Interests' }).getByRole('button');
    for (const i of [1, 3, 5]) await chips.nth(i).click();
    const dismissMessages = expectSystemMessages(page);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL('**/channel/group');
    await dismissMessages();
    await userMenu(page, 'sam_social').waitFor();

    await userMenu(page, 'sam_social').click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL('**/user/login');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.waitForURL('**/channel/group');
    await userMenu(page, 'sam_social').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says so when the email of the provider account already belongs to an account', async () => {
    provider.signInAs({ sub: 'g-1002', email: 'viewer1@demo.limelight.example', email_verified: true, name: 'Viewer One' });
    const { page, context } = await openAppPage();
    await page.goto('/user/login');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByRole('alert').filter({ hasText: MSG.socialEmailExists }).waitFor();
    expect(await page.getByRole('button', { name: 'Log In', exact: true }).isVisible()).toBe(true);
    await screenshot(page, 'social-email-exists');
    await context.close();
  });
});
