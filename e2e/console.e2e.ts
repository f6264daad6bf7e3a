/**
 * Journey: a viewer reports a live stream; an administrator finds the report in the console's queue at
 * /admin, ends the stream and suspends the broadcaster, deletes another's post from its page, and the
 * audit log shows all three. A plain viewer
 * finds no console (Not Found, no menu entry).
 */
import { afterAll, describe, expect } from 'vitest';
import { fill, MSG } from '../common/messages';
import type { RunningPublisher } from '../server/testing/rtmp-publisher';
import { DEMO_PASSWORD, logIn, signInAt, userMenu } from './support/app';
import { journeySteps, screenshot, useAppInBrowser } from './support/browser';
import type { TestPage } from './support/browser';
import { badge, broadcastAs } from './support/live';
import { HttpSession } from '../server/testing/http-session';
import { publishImagePost, testPicture } from '../server/testing/uploads';

const openAppPage = useAppInBrowser({ media: true, env: () => ({ RTMP_GRACE_MS: '1500' }) });
const step = journeySteps();

let publisher: RunningPublisher | undefined;
afterAll(async () => {
  await publisher?.stop();
});

const TITLE = 'Console journey show';
const POST_TITLE = 'Snapshot to remove';
let streamPath = '';
let streamId = 0;

describe('the operator console', () => {
  let broadcaster: TestPage;
  let viewer: TestPage;

  step('broadcaster1 goes live', async () => {
    broadcaster = await openAppPage();
    const onAir = await broadcastAs(broadcaster.page, TITLE);
    publisher = onAir.publisher;
    streamPath = onAir.streamPath;
    streamId = Number(new URL(streamPath, 'http://x').searchParams.get('id'));
  });

  step('an administrator makes a custom channel of broadcaster1, and a visitor on a phone browses it', async () => {
    const origin = new URL(broadcaster.page.url()).origin;
    await publishImagePost(await HttpSession.at(origin).signIn('broadcaster1', DEMO_PASSWORD), { title: 'Backstage picture' });
    const admin = await openAppPage();
    const { page } = admin;
    await signInAt(page, 'admin', '/admin');
    await page.getByRole('tab', { name: 'Channels' }).click();
    const form = page.getByRole('form', { name: 'New custom channel' });
    await form.getByLabel('Channel name').fill('Staff picks');
    await form.getByLabel('Broadcasters').fill('broadcaster1, nobody-here');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await page.getByText(fill(MSG.channelUnknownBroadcasters, { names: 'nobody-here' })).waitFor();
    await form.getByLabel('Broadcasters').fill('@broadcaster1');
    await form.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('table', { name: 'Custom channels' }).getByRole('row').filter({ hasText: '@broadcaster1' }).waitFor();
    await screenshot(page, 'console-custom-channels');
    expect(admin.errors).toEqual([]);
    await page.close();

    const visitor = await openAppPage({ width: 390, height: 844 });
    await visitor.page.goto('/channel/group');
    await visitor.page.getByRole('navigation', { name: 'Channels' }).getByRole('link', { name: 'Staff picks' }).click();
    await visitor.page.waitForURL((url) => url.pathname === '/channel/custom' && url.searchParams.get('metaType') === 'G');
    await visitor.page.getByRole('main').getByText(TITLE).first().waitFor();
    await screenshot(visitor.page, 'channel-custom-phone');
    await visitor.page.getByRole('tab', { name: 'Images' }).click();
    await visitor.page.getByRole('main').getByText('Backstage picture').first().waitFor();
    await visitor.page.close();
  });

  step('a viewer reports the live stream, and finds no console', async () => {
    viewer = await openAppPage();
    const { page } = viewer;
    await signInAt(page, 'viewer1', streamPath);
    await badge(page, 'LIVE').waitFor();
    await page.getByRole('button', { name: 'Report' }).click();
    const report = page.getByRole('dialog', { name: 'Report Stream' });
    await report.getByLabel('Reason').selectOption('inappropriate');
    await report.getByLabel('Details (optional)').fill('Rude language on air');
    await screenshot(page, 'console-viewer-report');
    await report.getByRole('button', { name: 'Submit' }).click();
    await page.getByText(MSG.complaintFiled).first().waitFor();

    await userMenu(page, 'viewer1').click();
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Console' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });

  step('an administrator sees the report in the queue, ends the stream and suspends the broadcaster', async () => {
    const admin = await openAppPage();
    const { page } = admin;
    await signInAt(page, 'admin', '/');
    await userMenu(page, 'admin').click();
    await page.getByRole('menuitem', { name: 'Console' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('heading', { name: 'Console' }).waitFor();
    const row = page.getByTestId(`report-stream-${streamId}`);
    await row.waitFor();
    await row.getByText('@viewer1').waitFor();
    await row.getByText('@broadcaster1').waitFor();
    await row.getByText('Rude language on air').waitFor();
    await row.getByText(TITLE).waitFor();
    await screenshot(page, 'console-reports-queue');

    await row.getByRole('button', { name: 'End Stream' }).click();
    await row.waitFor({ state: 'detached' });
    await badge(viewer.page, 'LIVE').waitFor({ state: 'detached', timeout: 20_000 });

    // The handled report shows who ended the stream, and offers what is left to do.
    await page.getByRole('tab', { name: 'Handled' }).click();
    const handled = page.getByTestId(`report-stream-${streamId}`);
    await handled.getByText('End Stream by @admin').waitFor();
    expect(await handled.getByRole('button', { name: 'End Stream' }).count()).toBe(0);
    await handled.getByRole('button', { name: 'Suspend User' }).click();
    const confirm = page.getByRole('dialog', { name: 'Suspend User' });
    await confirm.getByText('Suspend @broadcaster1?').waitFor();
    await screenshot(page, 'console-suspend-confirm');
    await confirm.getByRole('button', { name: 'Suspend' }).click();
    await handled.getByText('Suspend User by @admin').waitFor();
    await screenshot(page, 'console-reports-handled');

    // A viewer's post, deleted by the administrator from its page (the post.delete right), is kept in the same log.
    const upload = viewer.page;
    await upload.goto('/user/upload');
    const uploadForm = upload.getByRole('form', { name: 'Upload image' });
    await uploadForm.getByLabel('Choose images').setInputFiles({ name: 'snap.png', mimeType: 'image/png', buffer: await testPicture() });
    await uploadForm.getByLabel('Title').fill(POST_TITLE);
    await uploadForm.getByLabel('Audience').selectOption('public');
    await uploadForm.getByRole('button', { name: 'Publish' }).click();
    await upload.waitForURL(/\/post\/post-view\?id=\d+/, { timeout: 30_000 });
    const postId = Number(new URL(upload.url()).searchParams.get('id'));
    await page.goto(`/post/post-view?id=${postId}`);
    await page.getByRole('heading', { name: POST_TITLE }).waitFor();
    await page.getByRole('button', { name: 'Post actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete post' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('The post is deleted').first().waitFor();
    await page.goto('/admin');

    await page.getByRole('tab', { name: 'Audit log' }).click();
    const deleted = page.getByTestId('audit-post.delete').first();
    await deleted.getByText('@admin').waitFor();
    await deleted.getByText(`post ${postId}`).waitFor();
    const end = page.getByTestId('audit-stream.end').first();
    await end.getByText('@admin').waitFor();
    await end.getByText(`stream ${streamId}`).waitFor();
    await page.getByTestId('audit-user.suspend').first().getByText('@admin').waitFor();
    await screenshot(page, 'console-audit-log');

    // The periodic jobs and their runs, over every instance (this server runs them all: ROLE=all).
    await page.getByRole('tab', { name: 'Jobs' }).click();
    const outbox = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'event-outbox', exact: true }) });
    await outbox.getByRole('cell', { name: 'worker', exact: true }).waitFor();
    await screenshot(page, 'console-jobs');

    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByLabel('Username or e-mail').fill('broadcaster1');
    await page.getByRole('main').getByRole('button', { name: 'Search', exact: true }).click();
    const user = page.getByRole('row').filter({ hasText: '@broadcaster1' });
    await user.getByText('suspended').waitFor();
    await user.getByRole('button', { name: 'Open' }).click();
    const detail = page.getByRole('region', { name: 'User broadcaster1' });
    await detail.getByRole('button', { name: 'Lift suspension' }).waitFor();
    await screenshot(page, 'console-users');

    // Suspending from the users list asks first, for a reason and how long; the person is told both at sign-in.
    await detail.getByRole('button', { name: 'Lift suspension' }).click();
    await detail.getByRole('button', { name: 'Suspend' }).click();
    const suspend = page.getByRole('dialog', { name: 'Suspend User' });
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await suspend.getByText(MSG.suspendReasonRequired).waitFor();
    await suspend.getByLabel('Reason').fill('Rude language on air');
    await suspend.getByLabel('For').selectOption({ label: '3 days' });
    await screenshot(page, 'console-suspend-reason');
    await suspend.getByRole('button', { name: 'Suspend' }).click();
    await suspend.waitFor({ state: 'detached' });
    await detail.getByRole('button', { name: 'Lift suspension' }).waitFor();

    const suspended = await openAppPage({ width: 390, height: 844 });
    await suspended.page.goto('/user/login');
    await logIn(suspended.page, 'broadcaster1', DEMO_PASSWORD);
    await suspended.page.getByText(/^Your account is suspended until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\. Reason: Rude language on air\. If you think this is a mistake, write to support@limelight\.example\.$/).waitFor();
    await screenshot(suspended.page, 'login-suspended-phone');
    await suspended.page.close();

    // A system message written here reaches the viewer through the server notification modal, made safe.
    await page.getByRole('tab', { name: 'System messages' }).click();
    const form = page.getByRole('form', { name: 'New system message' });
    await form.getByLabel('Title').fill('Maintenance tonight');
    // (An inline handler such as onerror is refused by the page's CSP even in an inert parse, which the browser reports as an error: not tried here.)
    await form.getByLabel('Content (HTML)').fill('<p>Back at <b>22:00</b>.</p><script>document.title="hacked"</script><iframe src="/"></iframe><a href="javascript:alert(1)">more</a>');
    await form.getByRole('button', { name: 'Create message' }).click();
    await page.getByRole('row').filter({ hasText: 'Maintenance tonight' }).getByText('shown').waitFor();
    await screenshot(page, 'console-system-messages');
    expect(admin.errors).toEqual([]);

    await viewer.page.goto('/');
    const notice = viewer.page.getByRole('dialog', { name: 'Maintenance tonight' });
    await notice.getByText('22:00').waitFor();
    expect(await notice.locator('script, iframe').count()).toBe(0);
    expect(await notice.getByText('more').getAttribute('href')).toBeNull();
    expect(await viewer.page.title()).not.toBe('hacked');
    await screenshot(viewer.page, 'console-system-message-modal');
    await notice.getByRole('button', { name: 'Got it' }).click();
  }, 120_000);

});
