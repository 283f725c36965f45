import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThreadedFunctionRunner } from '@platform/bot-sandbox';
import { BotRuntimeEnv } from '@platform/config';
import type { FunctionRunOutcome, FunctionRunRequest, FunctionRunner } from '@platform/contracts';

/**
 * The runtime's function-node sandbox: BOT_SANDBOX_THREADS worker threads, started (and their QuickJS
 * loaded) before the runtime takes turns, and ended after the turn worker has stopped.
 */
@Injectable()
export class FunctionSandbox implements FunctionRunner, OnModuleInit, OnApplicationShutdown {
  private runner?: ThreadedFunctionRunner;

  constructor(private readonly env: BotRuntimeEnv) {}

  async onModuleInit() {
    this.runner = await ThreadedFunctionRunner.create(this.env.BOT_SANDBOX_THREADS);
  }

  run(request: FunctionRunRequest): Promise<FunctionRunOutcome> {
    return (this.runner as ThreadedFunctionRunner).run(request);
  }

  async onApplicationShutdown() {
    await this.runner?.close();
  }
}
