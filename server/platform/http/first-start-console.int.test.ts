/**
 * What an operator reads in the console (decision 0047): at the default LOG_LEVEL=info a first start
 * prints the demo logins, the administrator's password among them, and requests add no line to it (one
 * per request at LOG_LEVEL=debug); `npm run admin -- reset-password` makes a new password, random and
 * printed once or piped in and never printed, and is audited without it.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../../testing/databases';
import { HttpSession } from '../../testing/http-session';
import { startServerProcess, type ServerProcess } from '../../testing/server';

// A migrated embedded database with nothing in it: the server's first start seeds the demo on it.
let fresh: FreshDatabase;
let dataDir = '';
let server: ServerProcess | undefined;
beforeAll(async () => {
  fresh = await freshDatabase(inject('dbTemplate'));
  if (fresh.target.kind !== 'pglite') throw new Error('this suite runs on the embedded database');
  dataDir = fresh.dataDir;
});
afterAll(async () => {
  await server?.stop();
  await fresh?.dispose();
});

/** The command on the stopped server's data directory: its exit code and what it printed. */
function admin(args: string[], input?: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr }));
    // Piped (the password) or closed at once (none given: a random one).
    child.stdin?.end(input ?? '');
  });
}

it('prints the administrator password at first start with no request lines after it, and resets it from the command line', async () => {
  server = await startServerProcess({ LOG_LEVEL: 'info', SEED_DEMO: 'on' }, { dataDir, captureStdout: true, readyMs: 150_000 });
  for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/api/user/check-user-session`)).status).toBe(200);
  await server.stop();
  const printed = server.stdout();
  server = undefined;
  const firstPassword = /^\s+admin\s+(\S+)/m.exec(printed)?.[1];
  expect(firstPassword).toBeDefined();
  expect(printed).not.toMatch(/request completed|incoming request|check-user-session/);

  const made = await admin(['reset-password', 'admin']);
  expect(made.code).toBe(0);
  const newPassword = /^New password for admin \(shown only now\): (\S{16,})$/m.exec(made.out)?.[1];
  expect(newPassword).toBeDefined();
  const chosen = 'a-chosen-admin-password';
  const piped = await admin(['reset-password', 'viewer1'], `${chosen}\n`);
  expect(piped).toEqual({ code: 0, out: 'The password of viewer1 is changed. Every session of viewer1 has ended.\n' });
  expect(await admin(['reset-password', 'viewer2'], 'short\n')).toMatchObject({ code: 1, out: expect.stringContaining('Password must be at least 8 characters') });
  expect(await admin(['reset-password', 'nobody_here'])).toMatchObject({ code: 1, out: expect.stringContaining('nobody_here') });

  server = await startServerProcess({ LOG_LEVEL: 'debug' }, { dataDir, captureStdout: true, readyMs: 150_000 });
  const anyone = HttpSession.at(server.url);
  expect((await anyone.post('/api/user/user-login', { username: 'admin', password: firstPassword })).status).toBe(401);
  const adminSession = await HttpSession.at(server.url).signIn('admin', newPassword!);
  await HttpSession.at(server.url).signIn('viewer1', chosen);
  const { entries } = (await adminSession.get('/api/admin/audit-log', { target_type: 'user' })).body as { entries: Array<{ action: string; actor: unknown; after: unknown }> };
  const resets = entries.filter((e) => e.action === 'user.password_reset');
  expect(resets).toHaveLength(2);
  for (const entry of resets) expect(entry).toMatchObject({ actor: null, after: { sessions_ended: true } });
  expect(JSON.stringify(entries)).not.toContain(chosen);
  // At debug, one line per request.
  expect(server.stdout()).toMatch(/"msg":"request completed"/);
  expect(server.stdout()).not.toContain(chosen);
}, 400_000);
