/**
 * Web Push (RFC 8030, 8291, 8292 VAPID) with the `web-push` package: the installation's VAPID key pair
 * is made at first start and shared by every instance through the database; browsers' subscriptions
 * are kept per person; a message goes to each of a person's subscriptions, and one the push service
 * says is gone (404, 410) is forgotten.
 */
import { and, eq } from 'drizzle-orm';
import webpush from 'web-push';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { conflict, forbidden } from '../../platform/http/errors';
import { loadGeneratedSecret } from '../../platform/secrets';
import { isAllowedPushEndpoint } from './push-endpoints';
import { pushSubscriptions } from './tables';

export interface PushMessage {
  title: string;
  body: string;
  url: string;
  icon?: string | undefined;
  /** Replaces a shown notification with the same tag (a resend after a crash shows once). */
  tag: string;
}

export interface PushSubscriptionJson {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A push message is worth nothing after a day: the service may drop it then. */
const TTL_SECONDS = 24 * 3600;
const TIMEOUT_MS = 10_000;

export async function loadVapidKeys(db: Db): Promise<{ publicKey: string; privateKey: string }> {
  const stored = await loadGeneratedSecret(db, 'vapid', () => JSON.stringify(webpush.generateVAPIDKeys()));
  return JSON.parse(stored) as { publicKey: string; privateKey: string };
}

export function createPush(deps: { db: Db; keys: { publicKey: string; privateKey: string }; subject: string; allowedHosts: readonly string[] }) {
  const { db } = deps;
  const vapidDetails = { subject: deps.subject, publicKey: deps.keys.publicKey, privateKey: deps.keys.privateKey };

  return {
    publicKey: deps.keys.publicKey,

    /**
     * Keeps a browser's subscription for this person. An endpoint stays with the person who registered
     * it: anyone else presenting it is refused (409), so nobody takes another's notifications away or
     * has theirs sent to another's browser; the page then drops the browser's subscription, and a new
     * one has an endpoint of its own.
     */
    async subscribe(userId: number, subscription: PushSubscriptionJson) {
      if (!isAllowedPushEndpoint(subscription.endpoint, deps.allowedHosts)) throw forbidden(MSG.pushServiceRefused);
      const row = { userId, endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, createdAt: new Date() };
      const kept = await db.insert(pushSubscriptions).values(row)
        .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: row, setWhere: eq(pushSubscriptions.userId, userId) })
        .returning({ endpoint: pushSubscriptions.endpoint });
      if (kept.length === 0) throw conflict(MSG.pushEndpointTaken);
    },

    async unsubscribe(userId: number, endpoint: string) {
      await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
    },

    /** Sends to each of the person's browsers; answers false when a push service failed (try again later). */
    async send(userId: number, message: PushMessage): Promise<boolean> {
      const targets = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      const payload = JSON.stringify(message);
      const outcomes = await Promise.all(targets.map(async (target) => {
        if (!isAllowedPushEndpoint(target.endpoint, deps.allowedHosts)) return true;
        // web-push encrypts and signs; the request itself is ours (no redirects followed, a time limit).
        const request = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
          vapidDetails,
          TTL: TTL_SECONDS,
          // The service keeps one undelivered message per topic: a resend after a crash replaces the first.
          topic: message.tag,
        });
        try {
          const response = await fetch(request.endpoint, {
            method: request.method, headers: request.headers, body: new Uint8Array(request.body as Buffer), redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS),
          });
          await response.body?.cancel();
          if (response.status === 404 || response.status === 410) {
            await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, target.id));
            return true;
          }
          return response.ok;
        } catch {
          return false;
        }
      }));
      return outcomes.every(Boolean);
    },
  };
}

export type Push = ReturnType<typeof createPush>;
