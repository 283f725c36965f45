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
 * What handlers answer; the gateway turns `ok: false` into that HTTP status. A failure with a 5xx
 * status (nothing durable was done) travels as the request's error instead of its answer, so that it
 * is not kept as the answer of an Idempotency-Key.
 */
export type PushRpcResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; message: string; details?: Record<string, unknown> };

/** The failure a handler answered, as the gateway receives it (the request's error value). */
export function isPushRpcFailure(value: unknown): value is Extract<PushRpcResult<never>, { ok: false }> {
  const v = value as { ok?: unknown; status?: unknown; message?: unknown } | null;
  return typeof v === 'object' && v !== null && v.ok === false && typeof v.status === 'number' && typeof v.message === 'string';
}
