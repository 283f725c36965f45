// `npm run bench:overhead`: the platform's own overhead as the median of three runs of each ratio, the way
// it is judged on a new host: `bench:trigger` with an Idempotency-Key on every request, `bench:trigger`
// without one, and `bench:dispatch`, each run side by side with its bare baseline in one process tree.
// Runs them one after the other (never two at once: they would share the cores), prints each run's ratio
// with the calibration and the host's steal time during it (a busy neighbour on a shared host shows there
// first), then a Markdown table of the medians against their goals.
//
// Variables: BENCH_OVERHEAD_RUNS (3), BENCH_OVERHEAD_ONLY (comma-separated: keyed, unkeyed, dispatch; all by
// default); every other BENCH_* variable reaches the benchmarks as usual. Exits non-zero if a run failed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runBench, reportFailures } from './common.js';

interface Kind {
  name: 'keyed' | 'unkeyed' | 'dispatch';
  title: string;
  script: string;
  env: Record<string, string>;
  /** The ratio line the benchmark prints. */
  ratio: RegExp;
  goal: number;
}

const KINDS: Kind[] = [
  {
    name: 'keyed',
    title: '`bench:trigger`, an Idempotency-Key on every request',
    script: 'trigger.js',
    env: { BENCH_IDEMPOTENCY: '1' },
    ratio: /\*\*Ratio gateway \/ baseline: ([\d.]+)\*\*/,
    goal: 0.9,
  },
  { name: 'unkeyed', title: '`bench:trigger`, no Idempotency-Key', script: 'trigger.js', env: { BENCH_IDEMPOTENCY: '0' }, ratio: /\*\*Ratio gateway \/ baseline: ([\d.]+)\*\*/, goal: 1.0 },
  { name: 'dispatch', title: '`bench:dispatch`', script: 'dispatch.js', env: {}, ratio: /\*\*Ratio channel worker \/ bare worker: ([\d.]+)\*\*/, goal: 1.0 },
];

const RUNS = Number(process.env.BENCH_OVERHEAD_RUNS ?? 3);
const ONLY = (process.env.BENCH_OVERHEAD_ONLY ?? '').split(',').filter(Boolean);

interface RunOutcome {
  ratio?: number;
  calibration?: string;
  stealPercent: number;
  /** The host's 1-minute load average as the run started. */
  loadAtStart: number;
  code: number;
}

/** CPU ticks stolen by the hypervisor and all ticks so far, all cores (/proc/stat's first line). */
function cpuTicks(): { steal: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { steal: fields[7] ?? 0, total: fields.slice(0, 8).reduce((a, b) => a + b, 0) };
}

function runOnce(kind: Kind): Promise<RunOutcome> {
  const before = cpuTicks();
  const loadAtStart = loadavg()[0];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL(`./${kind.script}`, import.meta.url))], { env: { ...process.env, ...kind.env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => {
      const after = cpuTicks();
      const ratio = kind.ratio.exec(out)?.[1];
      resolve({
        ratio: ratio === undefined ? undefined : Number(ratio),
        calibration: /calibration: ([^\n]*?)\s*\(lower is faster\)/.exec(out)?.[1],
        stealPercent: (100 * (after.steal - before.steal)) / Math.max(1, after.total - before.total),
        loadAtStart,
        code: code ?? 1,
      });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(): Promise<void> {
  const failures: string[] = [];
  const rows: string[] = [];
  for (const kind of KINDS.filter((k) => ONLY.length === 0 || ONLY.includes(k.name))) {
    const ratios: number[] = [];
    const details: string[] = [];
    for (let run = 1; run <= RUNS; run++) {
      process.stderr.write(`\n=== ${kind.name}, run ${run} of ${RUNS}\n`);
      const outcome = await runOnce(kind);
      if (outcome.code !== 0 || outcome.ratio === undefined) failures.push(`${kind.name} run ${run} exited ${outcome.code}${outcome.ratio === undefined ? ' without a ratio' : ''}`);
      if (outcome.ratio !== undefined) ratios.push(outcome.ratio);
      details.push(
        `${outcome.ratio?.toFixed(2) ?? 'failed'} (${outcome.calibration ?? 'no calibration'}; load ${outcome.loadAtStart.toFixed(1)} at the start, steal ${outcome.stealPercent.toFixed(1)} % during it)`,
      );
    }
    const mid = ratios.length ? median(ratios) : NaN;
    rows.push(`| ${kind.title} | ${details.join('<br>')} | **${mid.toFixed(2)}** | ${kind.goal.toFixed(1)} | ${mid >= kind.goal ? 'met' : 'not met'} |`);
  }
  process.stdout.write(
    [
      '',
      `### The platform's own overhead: medians of ${RUNS} side-by-side runs (\`npm run bench:overhead\`)`,
      '',
      "| Benchmark | each run: ratio (calibration; the host's load average and hypervisor steal) | median | goal | |",
      '|---|---|---:|---:|---|',
      ...rows,
      '',
    ].join('\n'),
  );
  reportFailures(failures);
}

runBench(main);
