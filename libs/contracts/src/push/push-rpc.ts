/**
 * Request/response messages between the gateway and the push service over the @nestjs/microservices
 * Redis transport. Every request carries a gateway-made `requestId`: Redis pub/sub hands a request to
 * every push-service replica, and the replicas use it to do the work once and give the same answer.
 */
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
  requestId: string;
  botId: string;
  body: T;
}

/** Handlers answer with a result, never by throwing: the gateway turns `ok: false` into that HTTP status. */
export type PushRpcResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; message: string; details?: Record<string, unknown> };

/**
 * Prefix of the RPC channels. Redis pub/sub ignores the database index of REDIS_URL, so the index is
 * part of the channel name: deployments (and test runs) that share a Redis server on different
 * databases never answer each other's requests.
 */
export function pushRpcChannelPrefix(redisUrl: string): string {
  const db = /^rediss?:\/\/[^/]*\/(\d+)/.exec(redisUrl)?.[1] ?? '0';
  return `platform:db${db}:`;
}

/** ioredis connection options of a redis:// or rediss:// URL (the Nest Redis transport takes options, not a URL). */
export function redisOptionsFromUrl(redisUrl: string): {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db: number;
  tls?: Record<string, never>;
} {
  const url = new URL(redisUrl);
  return {
    host: url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    db: Number(/^\/(\d+)/.exec(url.pathname)?.[1] ?? 0),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}
