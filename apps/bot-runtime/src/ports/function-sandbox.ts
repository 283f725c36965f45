import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { QuickJsFunctionRunner, ThreadedFunctionRunner } from '@platform/bot-sandbox';
import { BotRuntimeEnv } from '@platform/config';
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRunner } from '@platform/contracts';
import { SerialFunctionRunner } from './serial-function-runner.js';

/**
 * The runtime's function-node sandbox: on the event loop (BOT_SANDBOX_THREADS=0) or on that many worker
 * threads, loaded before the runtime takes turns, and ended after the turn worker has stopped.
 */
@Injectable()
export class FunctionSandbox implements FunctionRunner, OnModuleInit, OnApplicationShutdown {
  private runner?: FunctionRunner & { close?: () => Promise<void> };

  constructor(private readonly env: BotRuntimeEnv) {}

  async onModuleInit() {
    const threads = this.env.BOT_SANDBOX_THREADS;
    this.runner = threads > 0 ? await ThreadedFunctionRunner.create(threads) : new SerialFunctionRunner(await QuickJsFunctionRunner.create());
  }

  run(request: FunctionRunRequest): Promise<FunctionRunOutcome> {
    return (this.runner as FunctionRunner).run(request);
  }

  async onApplicationShutdown() {
    await this.runner?.close?.();
  }
}
