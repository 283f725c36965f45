// Helpers of the test/push-*.e2e-spec.ts files: the loopback Google and FCM servers, the push env,
// a bot's API calls, saving a service account, waiting for a notification to settle, SQL, and a
// push-service process a test stops mid-send beside a second replica.
import { ChildProcess, spawn } from 'node:child_process';
import pg from 'pg';
import { FcmSandbox, FcmSandboxOptions, GoogleOAuthSandbox } from '@platform/sandbox';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SeededBot, createTestEnv, seedBotAdmin, seedCarouselBot, until } from '@platform/testing';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import type { Stack } from './e2e-stack.js';

/** Google's token endpoint and FCM HTTP v1 on loopback; FCM accepts only tokens the endpoint minted. */
export class PushSandboxes {
  readonly oauth = new GoogleOAuthSandbox();
  readonly fcm: FcmSandbox;

  /** `fcm`: more options of the FCM sandbox (e.g. a quota). */
  constructor(fcm: Omit<FcmSandboxOptions, 'verifyAccessToken'> = {}) {
    this.fcm = new FcmSandbox({ verifyAccessToken: (t) => this.oauth.verifyAccessToken(t), ...fcm });
  }

  async listen(): Promise<void> {
    await this.oauth.listen();
    await this.fcm.listen();
  }

  /** The settings that point a push service at these sandboxes. */
  settings(): Record<string, string> {
    return { FCM_API_BASE_URL: this.fcm.baseUrl, PUSH_ALLOW_INSECURE_TOKEN_URI: 'true', PUSH_SERVICE_HEALTH_PORT: '0' };
  }

  /** A test env (own database and Redis db) whose push service talks to these sandboxes. */
  env(overrides: Record<string, string> = {}): Promise<Record<string, string>> {
    return createTestEnv({ ...this.settings(), ...overrides });
  }

  async close(): Promise<void> {
    await this.fcm.close();
    await this.oauth.close();
  }
}

export type BotApi = (method: string, path: string, body?: unknown, extraHeaders?: Record<string, string>) => Promise<Response>;

/** Calls under /v1/bots/<botId> with the bot's API key (JSON body when given). */
export function botApi(baseUrl: string, botId: string, apiKey: string): BotApi {
  return (method, path, body, extraHeaders = {}) =>
    fetch(`${baseUrl}/v1/bots/${botId}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extraHeaders },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/** saveBotConfig as an administrator does it. */
export function saveServiceAccount(baseUrl: string, botId: string, adminToken: string, serviceAccount: unknown): Promise<Response> {
  return fetch(`${baseUrl}/api/data/vault/saveBotConfig?bot=${botId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': adminToken },
    body: JSON.stringify({ notification: { firebaseConfig: { serviceAccount } } }),
  });
}

/** GET …/notifications/<id> until it is completed or failed with nothing pending; its last status. */
/**
 * Sends a notification to all the bot's devices, asking again until it is accepted (202): the gateway
 * answers 503 until a push service listens, one still starting may take a request after the gateway
 * gave up waiting, and the Idempotency-Key makes each retry that same notification, not a second one
 * sent to the same devices. Returns its id.
 */
export function notifyAllOnceAccepted(api: BotApi, title: string, idempotencyKey: string): Promise<string> {
  return until(
    async () => {
      const res = await api('POST', '/notifications', { all: true, title, body: 'b' }, { 'idempotency-key': idempotencyKey });
      return res.status === 202 ? ((await res.json()).notificationId as string) : undefined;
    },
    90_000,
    'the notification accepted',
  );
}

export async function waitForNotification(api: BotApi, id: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await (await api('GET', `/notifications/${id}`)).json();
    if ((s.status === 'completed' || s.status === 'failed') && s.pending === 0) return s;
    if (Date.now() > deadline) throw new Error(`notification ${id} stuck: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Rows of one SQL statement, on a connection of its own. */
export async function sqlRows<T extends pg.QueryResultRow>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A bot with a service account (`projectId`) and one Android device per token, saved through an
 * in-process push service that is closed again: the test then starts the push services it is about.
 */
export async function seedPushBot(
  stack: { gateway: NestFastifyApplication; env: Record<string, string>; url: string },
  oauth: GoogleOAuthSandbox,
  projectId: string,
  tokens: readonly string[],
): Promise<SeededBot> {
  const bot = await seedCarouselBot(stack.gateway);
  const push = await createPushService(stack.env);
  try {
    const admin = await seedBotAdmin(stack.gateway, bot.botId, 'admin');
    const saved = await saveServiceAccount(stack.url, bot.botId, admin.accessToken, oauth.createServiceAccount(projectId));
    if (saved.status !== 200) throw new Error(`the service account was answered ${saved.status}: ${await saved.text()}`);
    const api = botApi(stack.url, bot.botId, bot.apiKey);
    for (const [i, token] of tokens.entries()) {
      const res = await api('POST', '/devices', { userId: `u${i}`, token, platform: 'android' });
      if (res.status !== 201) throw new Error(`device ${token} was answered ${res.status}: ${await res.text()}`);
    }
  } finally {
    await push.close();
  }
  return bot;
}

/** How a test stops its push-service process mid-send. */
export interface StopHook {
  /** Runs once the process is spawned, before the notification is sent (e.g. a hook on FCM's next accept). */
  arm?(child: ChildProcess): void;
  /** Runs once the notification is accepted; resolves when the process is stopped (or killed). */
  stop(child: ChildProcess, notificationId: string): Promise<void>;
}

/** Stops the process (SIGSTOP) once `seen()` holds, waiting for it as generously as a spawn on a loaded host needs. */
export function stopWhen(seen: () => boolean, what: string): StopHook {
  return {
    stop: async (child) => {
      await until(async () => (seen() ? true : undefined), 90_000, what);
      child.kill('SIGSTOP');
    },
  };
}

/** Stops the process as FCM accepts its first request, whose answer FCM holds until `release`. */
export function stopOnAccept(fcm: FcmSandbox): StopHook & { release(): void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let stopped = false;
  return {
    arm: (child) =>
      fcm.onNextAccept(() => {
        child.kill('SIGSTOP'); // stopped with its request in flight, its answer held
        stopped = true;
        return released;
      }),
    stop: () => until(async () => (stopped ? true : undefined), 90_000, 'the first push service sending').then(() => undefined),
    release: () => release(),
  };
}

/** A built push-service process the test stops mid-send, and a second replica in process. */
export interface StoppablePushService {
  /** The bot's API (after beforeAll). */
  readonly api: BotApi;
  readonly bot: SeededBot;
  /**
   * Spawns the built push service with `env` over the stack's, sends a notification to all the bot's
   * devices (`idempotencyKey`) and stops the process with `hook`. Returns the notification's id.
   */
  sendAndStop(options: { env: Record<string, string>; title: string; idempotencyKey: string; hook: StopHook }): Promise<string>;
  /** The process's output so far. */
  log(): string;
  /** Wakes the stopped process (SIGCONT). */
  resume(): void;
  /** Starts another push service on the same database and Redis, in process. */
  startReplica(): Promise<void>;
}

/**
 * For a test of what a push-service process stopped mid-send (a starved host, a lost lock) does beside
 * another replica: seeds a bot with `tokens` in beforeAll (service account `projectId`) and kills the
 * process and closes the replica before the stack closes. The stack needs `push`.
 */
export function useStoppablePushService(stack: Stack, projectId: string, tokens: readonly string[]): StoppablePushService {
  let bot: SeededBot | undefined;
  let child: ChildProcess | undefined;
  let replica: NestFastifyApplication | undefined;
  let log = '';
  stack.defer(async () => {
    child?.kill('SIGCONT');
    child?.kill('SIGKILL');
    await replica?.close();
  });
  beforeAll(async () => {
    bot = await seedPushBot(stack, stack.push.oauth, projectId, tokens);
  }, 120_000);
  const seeded = () => {
    if (!bot) throw new Error('the push bot is seeded in beforeAll');
    return bot;
  };
  const api: BotApi = (...args) => botApi(stack.url, seeded().botId, seeded().apiKey)(...args);
  return {
    api,
    get bot() {
      return seeded();
    },
    async sendAndStop({ env, title, idempotencyKey, hook }) {
      const started = spawn(process.execPath, ['dist/apps/push-service/src/main.js'], { env: { ...process.env, ...stack.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      started.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
      started.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
      hook.arm?.(started);
      const notificationId = await notifyAllOnceAccepted(api, title, idempotencyKey);
      await hook.stop(started, notificationId);
      return notificationId;
    },
    log: () => log,
    resume: () => void child?.kill('SIGCONT'),
    async startReplica() {
      replica = await createPushService(stack.env);
    },
  };
}
