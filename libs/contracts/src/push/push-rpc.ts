/**
 * Request/response messages between the gateway and the push service, carried by @nestjs/microservices
 * over a work queue (libs/messaging: one BullMQ queue, push-service replicas compete for its jobs), so
 * each request reaches one replica. The pattern is the job's name.
 */
export const PushRequestQueue = 'push-requests';

export const PushPatterns = {
  saveConfig: 'push.config.save',
  getConfig: 'push.config.get',
  deleteConfig: 'push.config.delete',
  getFcmQuota: 'push.quota.get',
  setFcmQuota: 'push.quota.set',
  registerDevice: 'push.device.register',
  unregisterDevice: 'push.device.unregister',
  sendNotification: 'push.notification.send',
  notificationStatus: 'push.notification.status',
  testNotification: 'push.notification.test',
} as const;

export type PushPattern = (typeof PushPatterns)[keyof typeof PushPatterns];

export interface PushRpcRequest<T> {
  botId: string;
  body: T;
}

/**
 * What a push-service handler answers, in the push service's own terms; the gateway decides what each
 * means over HTTP. `done` carries the answer's value.
 */
export type PushOutcome<T> = { kind: 'done'; value: T } | PushFailure;

/** The ways a push request can fail. */
export type PushFailure =
  /** The request is refused as it stands (a bad field, no push configuration for the bot, credentials Google rejects). */
  | { kind: 'invalid'; message: string; details?: Record<string, unknown> }
  /** What the request names does not exist for this bot. */
  | { kind: 'not_found'; message: string }
  /** Postgres, Redis or the fan-out queue could not be reached; nothing was done. */
  | { kind: 'unavailable'; message: string }
  /** FCM (or Google's token endpoint) could not be reached. */
  | { kind: 'provider_unreachable'; message: string }
  /** The push service failed to handle the request (its log has the details). */
  | { kind: 'failed'; message: string };

const FAILURE_KINDS: ReadonlySet<string> = new Set<PushFailure['kind']>(['invalid', 'not_found', 'unavailable', 'provider_unreachable', 'failed']);

/**
 * Failures after which nothing durable was done: they travel as the request's error instead of its
 * answer, so they are not kept as the answer of an Idempotency-Key and a retry runs the request again.
 */
export function isTransientPushFailure(failure: PushFailure): boolean {
  return failure.kind === 'unavailable' || failure.kind === 'provider_unreachable' || failure.kind === 'failed';
}

/** A failure a handler answered, as the gateway receives it (the request's error value). */
export function isPushFailure(value: unknown): value is PushFailure {
  const v = value as { kind?: unknown; message?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.kind === 'string' && FAILURE_KINDS.has(v.kind) && typeof v.message === 'string';
}
