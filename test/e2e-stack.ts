// The stack most feature tests stand on: loopback providers, a fresh database and Redis db, the apps
// in process, a seeded bot, and everything closed again in the reverse order it started. It lives
// in test/ rather than libs/testing because it starts the apps, and libs never import apps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { migrate } from '@platform/database';
import { LocalPostgres, LocalRedis, startLocalPostgres, startLocalRedis } from '@platform/local-infra';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { SeededBot, createTestEnv, seedCarouselBot } from '@platform/testing';
import { PushSandboxes } from './push-support.js';

type Env = Record<string, string>;

/** A loopback server the stack starts before the apps and closes after them. */
export interface LoopbackServer {
  listen(): Promise<unknown>;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Env overrides on top of the test env; a function when they depend on something started first. */
  env?: Env | (() => Env | Promise<Env>);
  /** The Cloud API the apps talk to (WHATSAPP_API_BASE_URL); `true` makes one. */
  cloud?: WhatsAppCloudSandbox | true;
  /** Google's token endpoint and FCM the push service talks to; `true` makes them. */
  push?: PushSandboxes | true;
  /**
   * A Redis and a Postgres of the stack's own (a migrated database of this name, in a temporary folder),
   * for a test that stops them; the shared test servers are left alone.
   */
  ownInfra?: string;
  /** Other loopback servers (bot webhooks, postback receivers). */
  servers?: LoopbackServer[];
  /** A listening gateway (default true). */
  gateway?: boolean;
  /** An in-process channel worker. */
  worker?: boolean;
  /** An in-process push service. */
  pushService?: boolean;
  /** A bot with a WhatsApp sender, a carousel template and an API key (seedCarouselBot). */
  seed?: boolean;
}

/** What was started; a part not asked for is undefined. */
export interface Stack {
  env: Env;
  gateway: NestFastifyApplication;
  /** The gateway's base URL. */
  url: string;
  worker: NestFastifyApplication;
  pushService: NestFastifyApplication;
  cloud: WhatsAppCloudSandbox;
  push: PushSandboxes;
  seed: SeededBot;
  /** The stack's own Redis (`ownInfra`). */
  redis: LocalRedis;
  /** The stack's own Postgres (`ownInfra`). */
  pg: LocalPostgres;
  /** One more gateway on the same database and Redis (a replica), closed with the stack. */
  replica(overrides?: Env): Promise<{ app: NestFastifyApplication; url: string }>;
  /** Runs `close` when the stack closes, before any part of it (queues, clients, child processes of the test). */
  defer(close: () => unknown): void;
  /** Closes everything in the reverse order it started; every part is closed even when one fails. */
  close(): Promise<void>;
}

/** Starts a stack; the caller closes it. On a failure what had started is closed again. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const stack = new StackParts(options);
  await stack.start(options);
  return stack;
}

const DEFAULT_STACK_TIMEOUT_MS = 120_000;

/** A stack started in beforeAll and closed in afterAll of the enclosing describe; its fields are set once beforeAll ran. */
export function useStack(options: StackOptions = {}, timeoutMs?: number): Stack {
  const stack = new StackParts(options);
  // Set-up waits generously: on a CI host shared with other jobs, starting the apps can take well over
  // Jest's default 30 s.
  beforeAll(() => stack.start(options), timeoutMs ?? DEFAULT_STACK_TIMEOUT_MS);
  afterAll(() => stack.close(), timeoutMs ?? DEFAULT_STACK_TIMEOUT_MS);
  return stack;
}

class StackParts implements Stack {
  env!: Env;
  gateway!: NestFastifyApplication;
  url!: string;
  worker!: NestFastifyApplication;
  pushService!: NestFastifyApplication;
  cloud: WhatsAppCloudSandbox;
  push: PushSandboxes;
  seed!: SeededBot;
  redis!: LocalRedis;
  pg!: LocalPostgres;
  /** Closers of the test's own things, run first. */
  private readonly deferred: Array<() => unknown> = [];
  /** Closers of the parts, in the order they started. */
  private readonly started: Array<() => unknown> = [];

  constructor(options: StackOptions) {
    this.cloud = options.cloud === true ? new WhatsAppCloudSandbox() : options.cloud!;
    this.push = options.push === true ? new PushSandboxes() : options.push!;
  }

  async start(options: StackOptions): Promise<void> {
    try {
      const env: Env = { WORKER_HEALTH_PORT: '0', PUSH_SERVICE_HEALTH_PORT: '0' };
      if (this.cloud) {
        env.WHATSAPP_API_BASE_URL = `${await this.cloud.listen()}/v21.0`;
        this.started.push(() => this.cloud.close());
      }
      if (this.push) {
        await this.push.listen();
        this.started.push(() => this.push.close());
        Object.assign(env, this.push.settings());
      }
      if (options.ownInfra) Object.assign(env, await this.startOwnInfra(options.ownInfra));
      for (const server of options.servers ?? []) {
        await server.listen();
        this.started.push(() => server.close());
      }
      const overrides = typeof options.env === 'function' ? await options.env() : options.env;
      this.env = await createTestEnv({ ...env, ...overrides });
      if (options.gateway ?? true) {
        this.gateway = await this.app(createGateway(this.env));
        this.url = await listenGateway(this.gateway);
      }
      if (options.worker) this.worker = await this.app(createChannelWorker(this.env));
      if (options.pushService) this.pushService = await this.app(createPushService(this.env));
      if (options.seed) this.seed = await seedCarouselBot(this.gateway);
    } catch (err) {
      await this.close().catch(() => undefined);
      throw err;
    }
  }

  private async startOwnInfra(name: string): Promise<Env> {
    const dir = mkdtempSync(join(tmpdir(), `${name}-`));
    this.started.push(() => rmSync(dir, { recursive: true, force: true }));
    this.redis = await startLocalRedis({ dataDir: join(dir, 'redis') });
    this.started.push(() => this.redis.stop());
    this.pg = await startLocalPostgres({ dataDir: join(dir, 'pg'), persistent: true });
    this.started.push(() => this.pg.stop());
    const databaseUrl = await this.pg.createDatabase(name.replace(/\W/g, '_'));
    await migrate(databaseUrl, join(process.cwd(), 'prisma', 'migrations'));
    return { REDIS_URL: this.redis.url, DATABASE_URL: databaseUrl };
  }

  async replica(overrides: Env = {}): Promise<{ app: NestFastifyApplication; url: string }> {
    const app = await this.app(createGateway({ ...this.env, ...overrides }));
    return { app, url: await listenGateway(app) };
  }

  defer(close: () => unknown): void {
    this.deferred.push(close);
  }

  async close(): Promise<void> {
    let first: unknown;
    for (let close = this.deferred.pop() ?? this.started.pop(); close; close = this.deferred.pop() ?? this.started.pop()) {
      try {
        await close();
      } catch (err) {
        first ??= err;
      }
    }
    if (first) throw first;
  }

  private async app(created: Promise<NestFastifyApplication>): Promise<NestFastifyApplication> {
    const app = await created;
    this.started.push(() => app.close());
    return app;
  }
}
