/** The real server (fresh embedded database, demo data, built web app) and account helpers. */
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { DEMO_PASSWORD } from '../../server/demo/demo-data';
import { startServer } from '../../server/testing/server';

export type RunningApp = Awaited<ReturnType<typeof startServer>>;

export interface AppOptions {
  captcha?: boolean;
  /** Start the RTMP ingest (live streaming journeys); its address is then `rtmpUrl`. */
  media?: boolean;
  /** The demo's video call (broadcaster1 hosting viewer1 and viewer2, who then follow them). */
  demoCall?: boolean;
  /** The demo's months of tips, views, follows and referrals (analytics and referral journeys). */
  demoHistory?: boolean;
  /** Extra server environment, read when the server starts (after earlier beforeAll hooks ran). */
  env?: () => Record<string, string>;
}

/** Each server's fresh database is a copy of the run's migrated one (e2e/global-setup.ts). */
export function startApp(options: AppOptions = {}): Promise<RunningApp> {
  return startServer({
    captcha: options.captcha ?? false,
    media: options.media ?? false,
    demoCall: options.demoCall ?? false,
    demoHistory: options.demoHistory ?? false,
    databaseTemplate: inject('e2eDatabaseTemplate'),
    ...(options.env ? { env: options.env() } : {}),
  });
}

/** Seeded by server/demo/demo-data.ts. */
export { DEMO_PASSWORD };

export interface NewUser {
  username: string;
  email: string;
  password: string;
}

export function newUser(): NewUser {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  return { username: `e2e_${tag}`, email: `e2e_${tag}@example.com`, password: 'correct-horse-battery' };
}

/** Fills and sends sign-up step one; the page moves on to the interests picker. */
export async function fillSignUp(page: Page, user: NewUser): Promise<void> {
  await page.getByLabel('Salutation (optional)').selectOption('MS');
  await page.getByLabel('Username', { exact: true }).fill(user.username);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(user.password);
  await page.getByLabel('Day').selectOption('15');
  await page.getByLabel('Month').selectOption('06');
  await page.getByLabel('Year').selectOption('1995');
  await page.getByLabel('Country').selectOption({ label: 'Canada' });
  await page.getByLabel(/I accept the/).check();
}

/**
 * On the open sign-up page: step one filled and sent, three interests chosen, Done; lands on the
 * channels signed in, with the system messages closed.
 */
export async function signUpWithInterests(page: Page, user: NewUser): Promise<void> {
  await fillSignUp(page, user);
  await page.getByRole('button', { name: 'Create Account' }).click();
  const chips = page.getByRole('list', { name: 'Interests' }).getByRole('button');
  for (const i of [0, 2, 4]) await chips.nth(i).click();
  const dismissMessages = expectSystemMessages(page);
  await page.getByRole('button', { name: 'Done' }).click();
  await page.waitForURL('**/channel/group');
  await dismissMessages();
}

export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
}

/** The top bar's user menu button, named by the signed-in username. */
export function userMenu(page: Page, username: string) {
  return page.getByRole('banner').getByRole('button', { name: username });
}

/**
 * Call before the navigation that first shows the shell to a signed-in user; the returned function
 * waits for the system messages answer and closes each message the app then shows.
 */
export function expectSystemMessages(page: Page): () => Promise<void> {
  const answer = page.waitForResponse((r) => r.url().includes('/api/user/get-system-messages'));
  return async () => {
    const { messages } = (await (await answer).json()) as { messages: Array<{ title: string }> };
    for (const message of messages) {
      const dialog = page.getByRole('dialog', { name: message.title });
      await dialog.getByRole('button', { name: 'Got it' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
  };
}

/** Logs a demo account in through the login page and lands on `path` with the system messages closed. */
export async function signInAt(page: Page, username: string, path: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(`/user/login?redirect=${encodeURIComponent(path)}`);
  const dismissMessages = expectSystemMessages(page);
  await logIn(page, username, password);
  await page.waitForURL((url) => url.pathname + url.search === path);
  await dismissMessages();
}

/** On the open Buy Coins page: the package of that price chosen and the sandbox test card typed in, not yet bought. */
export async function choosePackageByTestCard(page: Page, price = '$5.00'): Promise<void> {
  await page.getByRole('heading', { name: 'Buy Coins' }).waitFor();
  await page.getByRole('radiogroup', { name: 'Coin packages' }).locator('label').filter({ hasText: price }).click();
  await page.getByRole('radio', { name: /Credit Card/ }).check();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry month').selectOption('12');
  await page.getByLabel('Expiry year').selectOption(String(new Date().getFullYear() + 2));
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Vera Viewer');
}

/** The $5.00 package, as most journeys buy it. */
export const chooseFiveDollarsByTestCard = (page: Page): Promise<void> => choosePackageByTestCard(page);

/** On the open Buy Coins page: the $5.00 package paid with the sandbox test card, then the new balance shown. */
export async function buyFiveDollarsOfCoins(page: Page, newBalance: string): Promise<void> {
  await chooseFiveDollarsByTestCard(page);
  await page.getByRole('button', { name: 'Buy 100 Coins for $5.00' }).click();
  await page.getByRole('status').filter({ hasText: `New balance: ${newBalance}` }).waitFor({ timeout: 15_000 });
}
