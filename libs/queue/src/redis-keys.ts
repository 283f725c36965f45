import { DEFAULT_LIFECYCLE_STREAM_KEY } from '@platform/contracts';
import { type RedisTarget, redisKey } from './redis-connections.js';

/*
 * Every Redis key and pub/sub channel the platform names itself, one function per family, each under
 * the deployment's REDIS_KEY_PREFIX (redisKey). BullMQ's keys are bullPrefix's. The strings are the data
 * of running installs: changing one orphans what is stored under it (redis-keys.spec.ts pins them).
 *
 * Keys a script or MULTI touches together share a hash tag `{...}` (after the prefix, so the prefix
 * does not move a key's slot), which a Redis Cluster requires of them.
 */

/** The bot's trigger quota counter; shares the bot's tag with its Idempotency-Keys (one gate script per bot). */
export function triggerQuotaKey(target: RedisTarget, botId: string): string {
  return redisKey(target, `trigger-quota:{${botId}}`);
}

/** The sender pacer's keys of a WhatsApp number, under the number's tag: its state hash, held reservations and sends in flight. */
export function whatsappPaceKeys(target: RedisTarget, phoneNumberId: string): { state: string; held: string; sending: string } {
  const state = redisKey(target, `whatsapp-pace:{${phoneNumberId}}`);
  return { state, held: `${state}:held`, sending: `${state}:sending` };
}

/** The FCM pacer's state of one Firebase project (a hash: the second's count, slow-down, hold after a 429; `<key>:sending`, the same tag, its chunks in flight), shared by the push services. */
export function fcmPaceKey(target: RedisTarget, projectId: string): string {
  return redisKey(target, `push:fcm-pace:{${projectId}}`);
}

/** An SDK user's event stream and presence; one tag per user, since the scripts touch both. */
export function sdkUserKeys(target: RedisTarget, botId: string, userId: string): { events: string; presence: string } {
  const slot = `{${botId}:${userId}}`;
  return { events: redisKey(target, `sdk:${slot}:events`), presence: redisKey(target, `sdk:${slot}:presence`) };
}

/**
 * The marker of an SDK event appended under an idempotency key (a bot runtime's outbox item id): the
 * append script writes it with the stream entry, so a retried append of the same event is not stored
 * twice. Tagged like the user's stream, which the same script touches.
 */
export function sdkEventDedupeKey(target: RedisTarget, botId: string, userId: string, dedupeId: string): string {
  return redisKey(target, `sdk:{${botId}:${userId}}:dedupe:${dedupeId}`);
}

/** Pub/sub channel telling every gateway that an SDK user has new events. */
export function sdkNotifyChannel(target: RedisTarget, botId: string, userId: string): string {
  return redisKey(target, `sdk:notify:${botId}:${userId}`);
}

/** Pub/sub channel of API-key revocations (each gateway drops its cached check). */
export function apiKeyRevocationsChannel(target: RedisTarget): string {
  return redisKey(target, 'platform:api-key-revoked');
}

/** The message lifecycle stream (status changes; the postbacks and the console's live feed read it). */
export function lifecycleStreamKey(target: RedisTarget): string {
  return redisKey(target, DEFAULT_LIFECYCLE_STREAM_KEY);
}

/** The consumers listening on a request queue of libs/messaging (a sorted set: consumer → when it counts as gone). */
export function messagingConsumersKey(target: RedisTarget, queueName: string): string {
  return redisKey(target, `messaging:${queueName}:consumers`);
}

/** A console stream ticket, by the SHA-256 of the ticket (the ticket itself is never stored). */
export function consoleStreamTicketKey(target: RedisTarget, ticketSha256: string): string {
  return redisKey(target, `console:stream-ticket:${ticketSha256}`);
}

/** A pending OAuth authorization request. */
export function oauthAuthorizationRequestKey(target: RedisTarget, requestId: string): string {
  return redisKey(target, `oauth:authreq:${requestId}`);
}

/** A rate limiter's window of one bucket and caller, by the SHA-256 of the caller's id. */
export function rateLimitKey(target: RedisTarget, bucket: string, idSha256: string): string {
  return redisKey(target, `rl:${bucket}:${idSha256}`);
}

/** The sealed FCM access token of one version of a bot's service account, shared by the push services. */
export function fcmAccessTokenKey(target: RedisTarget, botId: string, configVersion: number | string, clientEmail: string): string {
  return redisKey(target, `push:fcm-token:${botId}:${configVersion}:${clientEmail}`);
}

/** Which devices of a push batch were sent already (a retried batch skips them). */
export function pushBatchProgressKey(target: RedisTarget, notificationId: string, seq: number): string {
  return redisKey(target, `push:progress:${notificationId}:${seq}`);
}
