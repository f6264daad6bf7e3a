/**
 * Backup and restore into a fresh deployment: a fan's deposit and tip and a creator's picture post are
 * backed up, restored into an empty database and store, and the restored platform signs the fan in with
 * the same balance, serves the same picture, and its books are clean.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { postLookup, type Post } from '../../../common/api/posts';
import { sendTip } from '../../../common/api/tips';
import { walletBalance } from '../../../common/api/wallet';
import { createGiven } from '../../testing/given';
import { freshDatabase, type FreshDatabase } from '../../testing/databases';
import { HttpSession } from '../../testing/http-session';
import { expectLedgerInvariants } from '../../testing/ledger-invariants';
import { openApp } from '../../testing/server';
import { publishImagePost } from '../../testing/uploads';
import { createS3FileStore } from '../storage/s3-store';
import { createLocalFileStore, readText } from '../storage/storage';
import { startS3Server } from '../../testing/s3-server';
import { createBackup, restoreBackup, type BackupSources } from './backup';

const template = inject('dbTemplate');
const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function deployment(options: { empty?: boolean } = {}): Promise<FreshDatabase> {
  const fresh = await freshDatabase(template, options);
  cleanup.push(() => fresh.dispose());
  return fresh;
}

const envOf = (fresh: FreshDatabase) => ({
  LOG_LEVEL: 'silent',
  WEB_DIST: `${fresh.dataDir}/no-web-build`,
  ...(fresh.target.kind === 'postgres' ? { DATABASE_URL: fresh.target.url } : {}),
});

function sourcesOf(fresh: FreshDatabase): BackupSources {
  return { database: fresh.target, dataDir: fresh.dataDir, files: createLocalFileStore(path.join(fresh.dataDir, 'files')) };
}

async function download(client: HttpSession, url: string): Promise<Buffer> {
  const res = await client.request('GET', url);
  expect(res.status).toBe(200);
  return res.body as unknown as Buffer;
}

describe('backup and restore', () => {
  it('restores the database and every stored object into a fresh deployment, with the books clean', { timeout: 180_000 }, async () => {
    const source = await deployment();
    const opened = await openApp(source.dataDir, envOf(source));
    const base = await opened.app.listen({ host: '127.0.0.1', port: 0 });
    const given = createGiven(opened.app, opened.resources);
    const live = await given.liveStream();
    const fan = await given.user();
    await given.coins(fan, 500);
    const fanSession = await HttpSession.at(base).signIn(fan.username, fan.password);
    await fanSession.call(sendTip, { stream_id: live.streamId, amount: 120 }, { idempotencyKey: 'backup-tip-1' });
    const creator = await given.user();
    const creatorSession = await HttpSession.at(base).signIn(creator.username, creator.password);
    const postId = await publishImagePost(creatorSession, {}, 2);
    const post = (await creatorSession.call(postLookup, { id: postId })).post as Post;
    const picture = await download(creatorSession, post.media[0]!.url);
    await opened.close();

    const parent = mkdtempSync(path.join(os.tmpdir(), 'll-backups-'));
    cleanup.push(() => rmSync(parent, { recursive: true, force: true }));
    const { directory, manifest } = await createBackup(sourcesOf(source), parent);
    expect(manifest.database).toBe(template.kind === 'postgres' ? 'postgres' : 'pglite');
    expect(manifest.objects.count).toBeGreaterThanOrEqual(2);

    const target = await deployment({ empty: true });
    await restoreBackup(directory, sourcesOf(target));
    const restored = await openApp(target.dataDir, envOf(target));
    cleanup.push(() => restored.close());
    await expectLedgerInvariants(restored.resources.database.db);
    const restoredBase = await restored.app.listen({ host: '127.0.0.1', port: 0 });
    const fanAgain = await HttpSession.at(restoredBase).signIn(fan.username, fan.password);
    expect((await fanAgain.call(walletBalance, {})).balance.CON).toBe(380);
    const creatorAgain = await HttpSession.at(restoredBase).signIn(creator.username, creator.password);
    const postAgain = (await creatorAgain.call(postLookup, { id: postId })).post as Post;
    expect(await download(creatorAgain, postAgain.media[0]!.url)).toEqual(picture);
    // The restored platform goes on: the fan's next tip is booked.
    await fanAgain.call(sendTip, { stream_id: live.streamId, amount: 30 }, { idempotencyKey: 'backup-tip-2' });
    expect((await fanAgain.call(walletBalance, {})).balance.CON).toBe(350);
    await expectLedgerInvariants(restored.resources.database.db);
  });

  it('restores only into an empty database and store, and refuses a damaged object', async () => {
    const source = await deployment();
    const store = sourcesOf(source);
    await store.files.put('posts/1/a.webp', Buffer.from('picture bytes'));
    const parent = mkdtempSync(path.join(os.tmpdir(), 'll-backups-'));
    cleanup.push(() => rmSync(parent, { recursive: true, force: true }));
    const { directory } = await createBackup(store, parent);

    await expect(restoreBackup(directory, sourcesOf(source))).rejects.toThrow(/already holds objects/);
    const migrated = await deployment();
    await expect(restoreBackup(directory, sourcesOf(migrated))).rejects.toThrow(/not empty|already exists/);

    writeFileSync(path.join(directory, 'objects', 'posts', '1', 'a.webp'), 'tampered');
    const empty = await deployment({ empty: true });
    await expect(restoreBackup(directory, sourcesOf(empty))).rejects.toThrow(/damaged/);
  });

  it('backs up every object of an S3 bucket and restores it into another', async () => {
    const [from, into] = await Promise.all([startS3Server('backup-from'), startS3Server('backup-into')]);
    cleanup.push(() => from.close(), () => into.close());
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'll-work-'));
    cleanup.push(() => rmSync(workDir, { recursive: true, force: true }));
    const source = await deployment();
    const bucket = createS3FileStore(from.settings, { workDir });
    const objects = { 'posts/7/a.webp': 'a picture', 'media/3/9/seg_00001.ts': 'a segment', 'avatars/5.webp': 'a face' };
    for (const [key, body] of Object.entries(objects)) await bucket.put(key, Buffer.from(body));
    const parent = mkdtempSync(path.join(os.tmpdir(), 'll-backups-'));
    cleanup.push(() => rmSync(parent, { recursive: true, force: true }));
    const { directory, manifest } = await createBackup({ database: source.target, dataDir: source.dataDir, files: bucket }, parent);
    expect(manifest.objects.count).toBe(3);

    const target = await deployment({ empty: true });
    const restoredBucket = createS3FileStore(into.settings, { workDir });
    await restoreBackup(directory, { database: target.target, dataDir: target.dataDir, files: restoredBucket });
    expect(await into.keys()).toEqual(Object.keys(objects).sort());
    for (const [key, body] of Object.entries(objects)) expect(await readText(restoredBucket, key)).toBe(body);
  });

  it.runIf(template.kind === 'pglite')('refuses to copy the embedded database while a server holds it', async () => {
    const source = await deployment();
    // Another process holds the data dir, as a running server does.
    const server = spawn('sleep', ['60']);
    cleanup.push(() => void server.kill());
    writeFileSync(path.join(source.dataDir, 'limelight.lock'), String(server.pid));
    const parent = mkdtempSync(path.join(os.tmpdir(), 'll-backups-'));
    cleanup.push(() => rmSync(parent, { recursive: true, force: true }));
    await expect(createBackup(sourcesOf(source), parent)).rejects.toThrow(/in use by a running server: stop the server first/);
  });
});
