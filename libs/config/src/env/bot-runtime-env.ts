import { IntEnv } from '../env-decorators.js';

/**
 * Hosted bots: the bot-turn queue (queued by the gateway, taken by the bot runtime) and the runtime's
 * limits. BOT_TURN_MAX_ATTEMPTS (25) with BOT_TURN_BACKOFF_MS (500, doubling) keeps a turn retried
 * through a Postgres or Redis outage of well over an hour; BOT_RUNTIME_CONCURRENCY (50) turns at once
 * per runtime process (different conversations); BOT_HTTP_TIMEOUT_MS (5000) caps an http node's call
 * when the node names none; BOT_SANDBOX_THREADS (0: on the event loop, one function at a time; N: on N
 * worker threads, each with its own QuickJS) runs function nodes.
 */
export class BotRuntimeEnv {
  @IntEnv({ min: 1, max: 50 })
  BOT_TURN_MAX_ATTEMPTS: number = 25;

  @IntEnv({ min: 1 })
  BOT_TURN_BACKOFF_MS: number = 500;

  @IntEnv({ min: 1, max: 1000 })
  BOT_RUNTIME_CONCURRENCY: number = 50;

  @IntEnv({ min: 100, max: 10000 })
  BOT_HTTP_TIMEOUT_MS: number = 5000;

  @IntEnv({ min: 0, max: 64 })
  BOT_SANDBOX_THREADS: number = 0;
}
