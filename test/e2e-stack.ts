// The stack most feature tests stand on: loopback providers, a fresh database and Redis db, the apps
// in process, a seeded bot, and everything closed again in the reverse order it started. It lives
// in test/ rather than libs/testing because it starts the apps, and libs never import apps.
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createChannelWorker } from '../apps/channel-worker/src/create-channel-worker.js';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
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
  /** One more gateway on the same database and Redis (a replica), closed with the stack. */
  replica(overrides?: Env): Promise<{ app: NestFastifyApplication; url: string }>;
  /** Runs `close` when the stack closes, before the apps (queues, clients, child processes). */
  defer(close: () => unknown): void;
  /** Closes everything in the reverse order it started; every part is closed even when one fails. */
  close(): Promise<void>;
}

/** Starts a stack; the caller closes it. On a failure what had started is closed again. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const stack = unstarted(options);
  await start(stack, options);
  return stack;
}

/** A stack started in beforeAll and closed in afterAll of the enclosing describe; its fields are set once beforeAll ran. */
export function useStack(options: StackOptions = {}, timeoutMs?: number): Stack {
  const stack = unstarted(options);
  beforeAll(() => start(stack, options), timeoutMs);
  afterAll(() => stack.close(), timeoutMs);
  return stack;
}

function unstarted(options: StackOptions): Stack {
  const closers: Array<() => unknown> = [];
  const stack = {
    cloud: options.cloud === true ? new WhatsAppCloudSandbox() : options.cloud,
    push: options.push === true ? new PushSandboxes() : options.push,
    async replica(overrides: Env = {}) {
      const app = await createGateway({ ...stack.env, ...overrides });
      closers.push(() => app.close());
      return { app, url: await listenGateway(app) };
    },
    defer(close: () => unknown) {
      closers.push(close);
    },
    async close() {
      let first: unknown;
      for (let close = closers.pop(); close; close = closers.pop()) {
        try {
          await close();
        } catch (err) {
          first ??= err;
        }
      }
      if (first) throw first;
    },
  } as Stack;
  return stack;
}

async function start(stack: Stack, options: StackOptions): Promise<void> {
  try {
    const env: Env = { WORKER_HEALTH_PORT: '0', PUSH_SERVICE_HEALTH_PORT: '0' };
    if (stack.cloud) {
      env.WHATSAPP_API_BASE_URL = `${await stack.cloud.listen()}/v21.0`;
      stack.defer(() => stack.cloud.close());
    }
    if (stack.push) {
      await stack.push.listen();
      stack.defer(() => stack.push.close());
      Object.assign(env, stack.push.settings());
    }
    for (const server of options.servers ?? []) {
      await server.listen();
      stack.defer(() => server.close());
    }
    const overrides = typeof options.env === 'function' ? await options.env() : options.env;
    stack.env = await createTestEnv({ ...env, ...overrides });
    if (options.gateway ?? true) {
      const app = await createGateway(stack.env);
      stack.defer(() => app.close());
      stack.gateway = app;
      stack.url = await listenGateway(app);
    }
    if (options.worker) {
      const app = await createChannelWorker(stack.env);
      stack.defer(() => app.close());
      stack.worker = app;
    }
    if (options.pushService) {
      const app = await createPushService(stack.env);
      stack.defer(() => app.close());
      stack.pushService = app;
    }
    if (options.seed) stack.seed = await seedCarouselBot(stack.gateway);
  } catch (err) {
    await stack.close().catch(() => undefined);
    throw err;
  }
}
