/**
 * The delivery job: takes due e-mail and push deliveries (`for update skip locked`, so instances share
 * the work), leases them, sends, and records the outcome. A crash mid-send leaves the lease to run out
 * and the delivery is tried again; a mail is kept in the outbox (and sent over SMTP) once per delivery
 * key however often it is tried, and a push message carries its notification's topic and tag, so a
 * repeat replaces the first instead of showing twice.
 */
import { inArray, sql } from 'drizzle-orm';
import { SKINS, isSkinId } from '../../../common/skins';
import { fill, MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import type { MailMessage, Mailer } from '../../platform/mail/mailer';
import { notificationReachSql, type AccountsService } from '../accounts';
import type { Push } from './push';
import { notificationDeliveries, notifications, type NotificationData } from './tables';
import { mailLink, mailSubject, mailText, notificationLink, notificationText, type NotificationFacts } from './texts';
import { integerArray } from '../../platform/db/arrays';

/** Deliveries taken per step. */
const BATCH = 500;
const MAX_ATTEMPTS = 5;
/** Push requests in flight at once within a batch. */
const PUSH_PARALLEL = 16;
const retryDelaySeconds = (attempts: number) => 60 * attempts * attempts;

export interface DeliveryDeps {
  db: Db;
  mailer: Mailer;
  push: Push;
  publicUsers: AccountsService['publicUsers'];
  /** The token of the signed link that turns e-mail notifications off without signing in. */
  emailLinkToken: (userId: number) => string;
  /** The installation's public origin (PUBLIC_URL), for links in mail and push messages. */
  origin: string;
  /** How long a taken delivery is held before another try may take it. */
  leaseSeconds: number;
  log: { warn(obj: object, msg: string): void };
}

type Outcome = 'sent' | 'skipped' | 'retry';

interface Due {
  id: number;
  channel: 'email' | 'push';
  attempts: number;
  notificationId: number;
  deliveryKey: string;
}

/** Who a notification is for, as things stand when it is delivered. */
interface Recipient {
  userId: number;
  facts: NotificationFacts;
  actorAvatar: string | null;
  email: string | null;
  /** Null when the account is no longer active. */
  skin: (typeof SKINS)[keyof typeof SKINS] | null;
  viaEmail: boolean;
  viaPush: boolean;
}

export function createDelivery(deps: DeliveryDeps) {
  const { db } = deps;

  async function claim(): Promise<Due[]> {
    const result = await db.execute<{ id: string; notification_id: string; channel: 'email' | 'push'; attempts: number }>(sql`
      update ${notificationDeliveries} d set attempts = d.attempts + 1, due_at = now() + make_interval(secs => ${deps.leaseSeconds})
      where d.id in (
        select id from ${notificationDeliveries} where state = 'pending' and due_at <= now()
        order by due_at, id limit ${BATCH} for update skip locked
      )
      returning d.id, d.notification_id, d.channel, d.attempts`);
    return result.rows.map((row) => ({
      id: Number(row.id), notificationId: Number(row.notification_id), channel: row.channel, attempts: Number(row.attempts), deliveryKey: `notification-${row.id}`,
    }));
  }

  async function recipientsOf(notificationIds: number[]): Promise<Map<number, Recipient>> {
    const result = await db.execute<{
      id: string; user_id: string; kind: NotificationFacts['kind']; actor_id: string | null; subject_id: string | null; data: NotificationData;
      email: string | null; skin: string | null; via_email: boolean | null; via_push: boolean | null;
    }>(sql`
      select n.id, n.user_id, n.kind, n.actor_id, n.subject_id, n.data, x.email, x.skin, x.via_email, x.via_push
      from ${notifications} n left join (${notificationReachSql}) x on x.user_id = n.user_id
      where n.id = any(${integerArray(notificationIds)}::bigint[])`);
    const actors = await deps.publicUsers(result.rows.flatMap((row) => (row.actor_id === null ? [] : [Number(row.actor_id)])));
    return new Map(result.rows.map((row) => {
      const actorId = row.actor_id === null ? null : Number(row.actor_id);
      const actor = actorId === null ? undefined : actors.get(actorId);
      const facts: NotificationFacts = { kind: row.kind, actorId, actorName: actor?.username ?? '', subjectId: row.subject_id === null ? null : Number(row.subject_id), data: row.data };
      const skin = row.skin && isSkinId(row.skin) ? SKINS[row.skin] : null;
      const recipient: Recipient = {
        userId: Number(row.user_id), facts, actorAvatar: actor?.avatar ?? null, email: row.email, skin, viaEmail: row.via_email === true, viaPush: row.via_push === true,
      };
      return [Number(row.id), recipient];
    }));
  }

  const absolute = (path: string) => (/^https?:/.test(path) ? path : `${deps.origin}${path}`);

  /** Whether this way still reaches the person: gone, suspended, or the way turned off since say no. */
  const reaches = (due: Due, to: Recipient | undefined): to is Recipient & { skin: NonNullable<Recipient['skin']> } =>
    Boolean(to?.skin) && (due.channel === 'email' ? to!.viaEmail && Boolean(to!.email) : to!.viaPush);

  function mailOf(due: Due, to: Recipient & { skin: NonNullable<Recipient['skin']> }): MailMessage {
    const prefix = to.skin.prefix;
    const unsubscribe = absolute(`${prefix}/user/notifications/email?id=${to.userId}&token=${deps.emailLinkToken(to.userId)}`);
    const text = [mailText(to.facts), '', absolute(`${prefix}${mailLink(to.facts)}`), '', '—', fill(MSG.notifyMailFooter, { link: unsubscribe })].join('\n');
    return { to: to.email!, subject: mailSubject(to.facts), text, key: due.deliveryKey, headers: { 'List-Unsubscribe': `<${unsubscribe}>` } };
  }

  async function pushTo(due: Due, to: Recipient & { skin: NonNullable<Recipient['skin']> }): Promise<Outcome> {
    const delivered = await deps.push.send(to.userId, {
      title: to.skin.name,
      body: notificationText(to.facts),
      url: absolute(`${to.skin.prefix}${notificationLink(to.facts)}`),
      icon: to.actorAvatar ? absolute(to.actorAvatar) : undefined,
      tag: `n${due.notificationId}`,
    });
    return delivered ? 'sent' : 'retry';
  }

  const failed = (due: Due) => (error: unknown): Outcome => {
    deps.log.warn({ err: error, deliveryId: due.id, channel: due.channel }, 'notification not delivered; tried again later');
    return 'retry';
  };

  async function record(batch: Due[], outcomes: Map<number, Outcome>) {
    const ids = (outcome: Outcome) => batch.filter((due) => outcomes.get(due.id) === outcome).map((due) => due.id);
    const sent = ids('sent');
    const skipped = ids('skipped');
    if (sent.length) await db.update(notificationDeliveries).set({ state: 'sent', sentAt: new Date() }).where(inArray(notificationDeliveries.id, sent));
    if (skipped.length) await db.update(notificationDeliveries).set({ state: 'skipped' }).where(inArray(notificationDeliveries.id, skipped));
    for (const due of batch) {
      if (outcomes.get(due.id) !== 'retry') continue;
      await db.update(notificationDeliveries)
        .set(due.attempts >= MAX_ATTEMPTS ? { state: 'failed' } : { dueAt: sql`now() + make_interval(secs => ${retryDelaySeconds(due.attempts)})` })
        .where(inArray(notificationDeliveries.id, [due.id]));
    }
  }

  return {
    /** One batch; answers whether there may be more. */
    async step(): Promise<boolean> {
      const batch = await claim();
      if (batch.length === 0) return false;
      const recipients = await recipientsOf([...new Set(batch.map((due) => due.notificationId))]);
      const outcomes = new Map<number, Outcome>();
      const mails: Array<{ due: Due; message: MailMessage }> = [];
      const pushes: Array<{ due: Due; to: Recipient & { skin: NonNullable<Recipient['skin']> } }> = [];
      for (const due of batch) {
        const to = recipients.get(due.notificationId);
        if (!reaches(due, to)) outcomes.set(due.id, 'skipped');
        else if (due.channel === 'email') mails.push({ due, message: mailOf(due, to) });
        else pushes.push({ due, to });
      }
      const mailed = await deps.mailer.sendMany(mails.map((mail) => mail.message)).catch((error: unknown) => mails.map(() => error));
      mails.forEach(({ due }, i) => outcomes.set(due.id, mailed[i] === null ? 'sent' : failed(due)(mailed[i])));
      for (let i = 0; i < pushes.length; i += PUSH_PARALLEL) {
        await Promise.all(pushes.slice(i, i + PUSH_PARALLEL).map(async ({ due, to }) => outcomes.set(due.id, await pushTo(due, to).catch(failed(due)))));
      }
      await record(batch, outcomes);
      return batch.length === BATCH;
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
