import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import type { BotStepRecord } from '@platform/contracts';

const steps = new Counter({ name: 'bot_steps_total', help: 'Nodes hosted bots ran, by node kind and outcome (ok, waiting, error, limit)', labelNames: ['kind', 'outcome'] });
const stepErrors = new Counter({ name: 'bot_step_errors_total', help: 'Nodes of hosted bots that failed or hit a limit, by node kind', labelNames: ['kind'] });
const sandbox = new Histogram({
  name: 'bot_sandbox_seconds',
  help: 'Time function nodes spent in the sandbox',
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2],
});
const turns = new Histogram({
  name: 'bot_turn_seconds',
  help: 'Time the engine took for one input of a conversation (a turn), http calls and functions included',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

/** The runtime's Prometheus series (the process's default registry, served at /metrics). */
@Injectable()
export class BotMetrics {
  steps(records: readonly BotStepRecord[]): void {
    for (const step of records) {
      steps.inc({ kind: step.kind, outcome: step.outcome });
      if (step.outcome === 'error' || step.outcome === 'limit') stepErrors.inc({ kind: step.kind });
      if (step.sandboxMs !== undefined) sandbox.observe(step.sandboxMs / 1000);
    }
  }

  turn(seconds: number): void {
    turns.observe(seconds);
  }
}
