import { QuickJsFunctionRunner } from './quickjs-function-runner.js';

/** The docs/sdk.md function node, run on every warm-call measurement. */
export const SDK_SNIPPET = `import { parseBotPayload } from '@bot-platform/sdk-core';

export default function main(payload) {
  try {
    return parseBotPayload(payload);
  } catch (error) {
    return {};
  }
}`;

export interface WarmCallTiming {
  name: string;
  calls: number;
  /** Mean wall time per call, µs. */
  meanUs: number;
  p50Us: number;
  p99Us: number;
}

/**
 * Times `n` warm calls of two function nodes (`return 1+1`, and the sdk.md snippet on a 200-byte payload)
 * on one runner, after a warm-up; for `npm run bench:bot` (issue goal: under 1 ms per warm call).
 */
export async function measureWarmCalls(n: number, runner?: QuickJsFunctionRunner): Promise<WarmCallTiming[]> {
  const sandbox = runner ?? (await QuickJsFunctionRunner.create());
  const payload = JSON.stringify({ userName: 'Ada Lovelace', JourneySlug: 'welcome', locale: 'en-GB', plan: 'premium', note: 'x'.repeat(100) }).slice(0, 200);
  const cases = [
    { name: 'return 1+1', code: 'return 1+1', payload: null },
    { name: 'sdk.md snippet, 200-byte payload', code: SDK_SNIPPET, payload },
  ];
  const timings: WarmCallTiming[] = [];
  for (const { name, code, payload: p } of cases) {
    const request = { code, payload: p, variables: { count: 1 }, timeoutMs: 50, memoryBytes: 16 * 1024 * 1024 };
    for (let i = 0; i < Math.min(200, n); i++) await sandbox.run(request);
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = process.hrtime.bigint();
      const outcome = await sandbox.run(request);
      samples.push(Number(process.hrtime.bigint() - start) / 1000);
      if (!outcome.ok) throw new Error(`${name}: ${outcome.failure}: ${outcome.message}`);
    }
    samples.sort((a, b) => a - b);
    const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]);
    timings.push({ name, calls: n, meanUs: Math.round(samples.reduce((a, b) => a + b, 0) / n), p50Us: at(0.5), p99Us: at(0.99) });
  }
  return timings;
}
