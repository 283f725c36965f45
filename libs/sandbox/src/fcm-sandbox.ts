import { Http2Server, Http2ServerRequest, Http2ServerResponse, createServer } from 'node:http2';
import { AddressInfo } from 'node:net';

/** A scripted FCM answer for one request to a token. */
export type FcmReply = 'ok' | { status: number; errorCode?: string; errorStatus?: string; message?: string; retryAfter?: string } | { hang: true };

/** Shorthands for FCM HTTP v1's documented errors. */
export const FcmErrors = {
  unregistered: { status: 404, errorStatus: 'NOT_FOUND', errorCode: 'UNREGISTERED', message: 'Requested entity was not found.' },
  senderIdMismatch: { status: 403, errorStatus: 'PERMISSION_DENIED', errorCode: 'SENDER_ID_MISMATCH', message: 'SenderId mismatch' },
  invalidToken: { status: 400, errorStatus: 'INVALID_ARGUMENT', errorCode: 'INVALID_ARGUMENT', message: 'The registration token is not a valid FCM registration token' },
  unavailable: { status: 503, errorStatus: 'UNAVAILABLE', errorCode: 'UNAVAILABLE', message: 'The service is currently unavailable.' },
  internal: { status: 500, errorStatus: 'INTERNAL', errorCode: 'INTERNAL', message: 'Internal error encountered.' },
  quotaExceeded: (retryAfterSeconds: number) => ({
    status: 429,
    errorStatus: 'RESOURCE_EXHAUSTED',
    errorCode: 'QUOTA_EXCEEDED',
    message: 'Quota exceeded for quota metric.',
    retryAfter: String(retryAfterSeconds),
  }),
} as const;

export interface ReceivedFcmMessage {
  at: number;
  projectId: string;
  token: string;
  message: Record<string, unknown>;
  /** The reply given (status code). */
  status: number;
}

export interface FcmSandboxOptions {
  /** Who an access token belongs to (GoogleOAuthSandbox.verifyAccessToken); null = unknown token. Without it any bearer passes. */
  verifyAccessToken?: (token: string) => { projectId: string } | null;
  /** Keep every message (tests); the benchmark turns it off and only counts. */
  record?: boolean;
  /**
   * FCM's per-project quota, scaled down: at most `perWindow` messages are accepted in each window of
   * `windowMs` (aligned on the epoch, as the pacer's seconds are on Redis' clock); beyond it, 429
   * QUOTA_EXCEEDED with Retry-After `retryAfterSeconds` (1 by default).
   */
  quota?: { perWindow: number; windowMs: number; retryAfterSeconds?: number };
  /** Called with each message answered (`npm run up` prints the ones it receives, so a push can be seen). */
  onMessage?: (message: ReceivedFcmMessage) => void;
}

const RESERVED_KEYS = new Set(['from', 'notification', 'message_type', 'collapse_key']);

/**
 * Speaks FCM HTTP v1 (`POST /v1/projects/<project>/messages:send`) over HTTP/2 cleartext on loopback.
 * Checks the bearer token (issued for that project) and the message shape the way FCM does; answers
 * success, or what was scripted for a token (FcmSandbox.script) or for every token (scriptAll).
 */
export class FcmSandbox {
  readonly messages: ReceivedFcmMessage[] = [];
  /** Tokens of the requests held without an answer (`{ hang: true }`), in the order they came. */
  readonly hung: string[] = [];
  /** Requests answered, by status code. */
  readonly counts = new Map<number, number>();
  private readonly scripts = new Map<string, FcmReply[]>();
  private readonly allScript: FcmReply[] = [];
  private readonly permanent = new Map<string, FcmReply>();
  private acceptHook?: (message: ReceivedFcmMessage) => Promise<void> | void;
  private server?: Http2Server;
  private nextId = 1;
  /** Messages accepted (200) per quota window (window start in ms → count); with `quota` only. */
  readonly acceptedPerWindow = new Map<number, number>();
  baseUrl = '';

  constructor(private readonly options: FcmSandboxOptions = {}) {}

  /** Next answers for requests to `token`, in order; then requests to it succeed again. */
  script(token: string, ...replies: FcmReply[]): this {
    this.scripts.set(token, [...(this.scripts.get(token) ?? []), ...replies]);
    return this;
  }

  /** Next answers for requests to any token (after per-token scripts). */
  scriptAll(...replies: FcmReply[]): this {
    this.allScript.push(...replies);
    return this;
  }

  /** Every request to `token` gets this answer (e.g. an uninstalled app: UNREGISTERED). */
  always(token: string, reply: FcmReply): this {
    this.permanent.set(token, reply);
    return this;
  }

  /**
   * The next message answered 200 is recorded, passed to `hook`, and answered only once the hook's
   * promise resolves: a send held in flight (e.g. while the test stops the process that sent it).
   */
  onNextAccept(hook: (message: ReceivedFcmMessage) => Promise<void> | void): this {
    this.acceptHook = hook;
    return this;
  }

  /** Messages received for `token`, oldest first. */
  received(token: string): ReceivedFcmMessage[] {
    return this.messages.filter((m) => m.token === token);
  }

  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer({ settings: { maxConcurrentStreams: 1000 } }, (req, res) => this.onRequest(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    this.baseUrl = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Open client sessions would keep close() waiting: end them.
      (server as unknown as { sessions?: Set<{ destroy(): void }> }).sessions?.forEach((s) => s.destroy());
    });
  }

  private onRequest(req: Http2ServerRequest, res: Http2ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => this.answer(req, res, Buffer.concat(chunks).toString('utf8')));
  }

  private answer(req: Http2ServerRequest, res: Http2ServerResponse, raw: string): void {
    const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(req.url);
    if (req.method !== 'POST' || !match) return this.error(res, { status: 404, errorStatus: 'NOT_FOUND', message: 'Not found' });
    const projectId = decodeURIComponent(match[1]);
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!bearer) return this.error(res, { status: 401, errorStatus: 'UNAUTHENTICATED', message: 'Request is missing required authentication credential.' });
    if (this.options.verifyAccessToken) {
      const owner = this.options.verifyAccessToken(bearer);
      if (!owner) return this.error(res, { status: 401, errorStatus: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' });
      if (owner.projectId !== projectId) {
        return this.error(res, {
          status: 403,
          errorStatus: 'PERMISSION_DENIED',
          message: `Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/${projectId}'`,
        });
      }
    }
    let message: Record<string, unknown>;
    try {
      message = (JSON.parse(raw) as { message: Record<string, unknown> }).message;
    } catch {
      return this.error(res, { status: 400, errorStatus: 'INVALID_ARGUMENT', message: 'Invalid JSON payload received.' });
    }
    const problem = checkMessage(message);
    if (problem) return this.error(res, { status: 400, errorStatus: 'INVALID_ARGUMENT', message: problem });
    const token = message.token as string;
    const quota = this.options.quota;
    if (quota) {
      const window = Math.floor(Date.now() / quota.windowMs) * quota.windowMs;
      const accepted = this.acceptedPerWindow.get(window) ?? 0;
      if (accepted >= quota.perWindow) return this.error(res, FcmErrors.quotaExceeded(quota.retryAfterSeconds ?? 1));
      this.acceptedPerWindow.set(window, accepted + 1);
    }
    const reply = this.permanent.get(token) ?? this.scripts.get(token)?.shift() ?? this.allScript.shift() ?? 'ok';
    if (reply !== 'ok' && 'hang' in reply) return void this.hung.push(token);
    const status = reply === 'ok' ? 200 : reply.status;
    const received = { at: Date.now(), projectId, token, message, status };
    if (this.options.record !== false) this.messages.push(received);
    this.options.onMessage?.(received);
    if (reply === 'ok') {
      const hook = this.acceptHook;
      this.acceptHook = undefined;
      const name = `projects/${projectId}/messages/${this.nextId++}`;
      const ok = () => {
        this.count(200);
        res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(`{"name":"${name}"}`);
      };
      if (hook) void Promise.resolve(hook(received)).then(ok, ok);
      else ok();
      return;
    }
    this.error(res, reply);
  }

  private error(res: Http2ServerResponse, e: { status: number; errorCode?: string; errorStatus?: string; message?: string; retryAfter?: string }): void {
    this.count(e.status);
    const body = {
      error: {
        code: e.status,
        message: e.message ?? 'error',
        status: e.errorStatus ?? 'UNKNOWN',
        ...(e.errorCode ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: e.errorCode }] } : {}),
      },
    };
    res.writeHead(e.status, { 'content-type': 'application/json; charset=UTF-8', ...(e.retryAfter ? { 'retry-after': e.retryAfter } : {}) });
    res.end(JSON.stringify(body));
  }

  private count(status: number): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
  }
}

/** FCM's own checks of a v1 message that matter here; a message naming the problem, or null. */
function checkMessage(message: Record<string, unknown> | undefined): string | null {
  if (!message || typeof message !== 'object') return 'message is required';
  if (typeof message.token !== 'string' || message.token === '') return 'message.token must be a non-empty string';
  const data = message.data as Record<string, unknown> | undefined;
  if (data !== undefined) {
    if (typeof data !== 'object' || data === null) return 'message.data must be a map';
    let bytes = 0;
    for (const [k, v] of Object.entries(data)) {
      if (typeof v !== 'string') return `Invalid value at 'message.data[${k}].value' (TYPE_STRING)`;
      if (RESERVED_KEYS.has(k) || /^(google|gcm)/i.test(k)) return `Invalid data payload key: ${k}`;
      bytes += Buffer.byteLength(k) + Buffer.byteLength(v);
    }
    if (bytes > 4096) return 'Message is too big';
  }
  const notification = message.notification as Record<string, unknown> | undefined;
  if (notification !== undefined) {
    for (const k of ['title', 'body']) {
      if (notification[k] !== undefined && typeof notification[k] !== 'string') return `Invalid value at 'message.notification.${k}'`;
    }
  }
  const android = message.android as Record<string, unknown> | undefined;
  if (android?.priority !== undefined && !['NORMAL', 'HIGH'].includes(String(android.priority))) {
    return `Invalid value at 'message.android.priority' (type.googleapis.com/google.firebase.fcm.v1.AndroidMessagePriority), "${android.priority}"`;
  }
  if (android?.ttl !== undefined && !/^\d+(\.\d+)?s$/.test(String(android.ttl))) return `Invalid value at 'message.android.ttl'`;
  return null;
}
