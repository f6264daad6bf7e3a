/** Signed-in states: the terms modal, permission gates, the narrow-screen shell. */
import { describe, expect, it } from 'vitest';
import { MSG } from '../common/messages';
import { DEMO_PASSWORD, expectSystemMessages, logIn, userMenu } from './support/app';
import { screenshot, useAppInBrowser } from './support/browser';


const openAppPage = useAppInBrowser();

describe('session', () => {
  it('blocks a user who has not accepted the terms until they do', async () => {
    const { page, context, errors } = await openAppPage();
    await page.goto('/miitv/user/login');
    const dismissMessages = expectSystemMessages(page);
    await logIn(page, 'viewer5', DEMO_PASSWORD);

    const dialog = page.getByRole('dialog', { name: 'MiiTV Terms of Service' });
    await dialog.getByRole('heading', { name: 'MiiTV Terms of Service', level: 1 }).waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByText(MSG.termsChoiceRequired).waitFor();
    await screenshot(page, 'terms-modal');

    await dialog.getByLabel('I accept').check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.waitFor({ state: 'detached' });
    await dismissMessages();
    await userMenu(page, 'viewer5').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a viewer into the dashboard but not the referral page', async () => {
    const { page, context } = await openAppPage();
    await page.goto('/user/login?redirect=%2Fuser%2Freferral');
    const dismissMessages = expectSystemMessages(page);
    await logIn(page, 'viewer1', DEMO_PASSWORD);
    await page.waitForURL('**/user/referral');
    await dismissMessages();
    // Outside the referral programme: the page says so (spec part 1 §2 Referral dashboard), with a way to ask.
    await page.getByText('You are not eligible for the Limelight referral program yet, please contact our sales team.').waitFor();
    await page.getByRole('link', { name: 'Contact' }).waitFor();
    await screenshot(page, 'viewer-referral-not-allowed');

    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'RTMP Feed & Stream Links' }).waitFor();
    await context.close();
  });

  it('hides the side bar on a narrow screen and opens it as a drawer', async () => {
    const { page, context } = await openAppPage({ width: 820, height: 1000 });
    await page.goto('/personas');
    await page.getByRole('heading', { level: 1, name: 'Personas' }).waitFor();
    const sidebar = page.getByRole('complementary', { name: 'Side bar' });
    expect(await sidebar.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Show side bar' }).click();
    await sidebar.getByRole('link', { name: 'Browse' }).waitFor();
    await screenshot(page, 'narrow-drawer');
    await sidebar.getByRole('link', { name: 'Browse' }).click();
    await page.waitForURL('**/personas/channel/group');
    expect(await sidebar.isVisible()).toBe(false);
    await context.close();
  });
});

describe('session watch', () => {
  it('notices within one check interval when the session ends elsewhere', async () => {
    const { page, context } = await openAppPage();
    await page.goto('/user/login?redirect=%2F');
    const dismissMessages = expectSystemMessages(page);
    await logIn(page, 'viewer2', DEMO_PASSWORD);
    await dismissMessages();
    await userMenu(page, 'viewer2').waitFor();

    // Another tab signs out: the server session is gone, this page still shows the user.
    await page.evaluate(async () => {
      const { token } = (await (await fetch('/api/csrf-token')).json()) as { token: string };
      await fetch('/api/user/logout', { method: 'POST', headers: { 'X-CSRF-Token': token, 'Content-Type': 'application/json' }, body: '{}' });
    });
    await page.getByRole('banner').getByRole('link', { name: 'Sign up for Free' }).waitFor({ timeout: 15_000 });
    expect(await userMenu(page, 'viewer2').count()).toBe(0);
    await context.close();
  });
});
