// `npm run bench:pacing-cost`: what per-number pacing costs per message, unpaced and paced in one run.
// BENCH_WORKERS (3) built channel-worker processes drain BENCH_MESSAGES (20,000) carousel messages of one
// number three times into the loopback WhatsApp fake (a forked process):
//
//  1. unpaced: the workers run with WHATSAPP_PACING=false (no reservation, no count), the messages
//     added at BENCH_RATE (500) a second, a tenth of a second's worth at a time, as steady traffic;
//  2. paced: the same build restarted with pacing on, the number at BENCH_RATE, fed the same way (a rate
//     the host sustains: set it well below the unpaced drain rate of bench:dispatch);
//  3. paced, all queued at once: a backlog of the number, most of which waits in the delayed set.
//
// Each phase starts its workers and drains BENCH_WARMUP_MESSAGES (1,000) to warm them up; the clock runs
// from the first measured message added (or queue.resume()) to the fake's last arrival. CPU
// per message comes from /proc: the workers (all threads), Redis, Postgres (with its backends), the
// fake, and the whole machine (everything but idle, other tenants of the host included: compare it with
// the load average printed). Redis' INFO commandstats gives the commands per message of each phase.
// The ratio paced / unpaced per message is printed for the workers + Redis (where pacing runs) and for
// the machine; the goal is at most 1.2. Exits non-zero when a paced second went over the rate or a row
// did not end `sent`.
//
// Variables: BENCH_MESSAGES (20000), BENCH_RATE (500, 1-1000), BENCH_WORKERS (3), BENCH_WARMUP_MESSAGES
// (1000), BENCH_CPU_PROF=1 (a V8 CPU profile of each worker of each phase in .local/profiles).
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { Queue } from 'bullmq';
import { QueueNames } from '@platform/contracts';
import { freePort } from '@platform/local-infra';
import {
  BenchInfra,
  aofRewrites,
  benchSetup,
  commandStatsPerMessage,
  cpuSecondsOf,
  cpuSecondsWithChildren,
  fmt,
  machineBusySeconds,
  machineLine,
  redisCommandStats,
  reportFailures,
  workerCounters,
  runBench,
  startNode,
  stopProcess,
  waitAllSent,
  waitHealthy,
  setSeededSenderRate,
} from './common.js';
import { QueuedTrigger, enqueue, queuedTrigger } from './queued-trigger.js';
import { WhatsAppFakeProcess } from './whatsapp-fake-process.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP_MESSAGES ?? 1_000);

interface Cpu {
  workers: number;
  redis: number;
  postgres: number;
  fake: number;
  machine: number;
}

interface Phase {
  name: string;
  seconds: number;
  /** CPU µs per message */
  cpu: Cpu;
  commands: string;
  /** pace script calls per message (the workers' whatsapp_pace_script_calls_total) */
  paceCalls: number;
  /** messages that waited for their slot in the delayed set, per message */
  delayed: number;
  highest: number;
  over: number;
  load: string;
  rewrites: number;
}

function cpuNow(infra: BenchInfra, workers: ChildProcess[], fake: WhatsAppFakeProcess): Cpu {
  return {
    workers: workers.reduce((s, w) => s + cpuSecondsOf(w.pid!), 0),
    redis: cpuSecondsOf(infra.pids.redis),
    postgres: cpuSecondsWithChildren(infra.pids.postgres),
    fake: cpuSecondsOf(fake.pid),
    machine: machineBusySeconds(),
  };
}

const perMessage = (a: Cpu, b: Cpu, n: number): Cpu => ({
  workers: ((b.workers - a.workers) * 1e6) / n,
  redis: ((b.redis - a.redis) * 1e6) / n,
  postgres: ((b.postgres - a.postgres) * 1e6) / n,
  fake: ((b.fake - a.fake) * 1e6) / n,
  machine: ((b.machine - a.machine) * 1e6) / n,
});

async function main(): Promise<void> {
  if (!Number.isInteger(RATE) || RATE < 1 || RATE > 1000) throw new Error('BENCH_RATE must be a whole number of messages per second, 1-1000');
  const { infra, machine, retry, concurrency, db, source, cleanups, close } = await benchSetup('pacing-cost');
  const { seed } = infra;
  const failures: string[] = [];
  try {
    const pacedSender = await setSeededSenderRate(db, seed, RATE);
    const make = (): QueuedTrigger => queuedTrigger(source(pacedSender), retry);
    const fake = await WhatsAppFakeProcess.start(seed.accessToken);
    cleanups.unshift(() => fake.stop());
    const queue = new Queue(QueueNames.carouselDispatch, { connection: { url: infra.redisUrl } });
    cleanups.unshift(() => queue.close());

    let sentSoFar = 0;
    /** Adds `total` jobs at `rate` a second, a tenth of a second's worth at a time, as steady traffic arrives. */
    const feed = async (total: number, rate: number) => {
      const started = Date.now();
      for (let added = 0; added < total;) {
        const due = Math.min(total, Math.ceil(((Date.now() - started) / 1000) * rate) + Math.ceil(rate / 10));
        if (due > added) {
          await enqueue(queue, Array.from({ length: due - added }, make));
          added = due;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const phase = async (name: string, paced: boolean, burst: boolean): Promise<Phase> => {
      const workers: ChildProcess[] = [];
      const ports: number[] = [];
      for (let i = 0; i < WORKERS; i++) {
        const port = await freePort();
        const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=.local/profiles', `--cpu-prof-name=pacing-cost-${name.replace(/\W+/g, '-')}-${i + 1}.cpuprofile`] : [];
        workers.push(
          startNode([...prof, 'dist/apps/channel-worker/src/main.js'], { ...infra.env, WHATSAPP_API_BASE_URL: fake.baseUrl, WORKER_HEALTH_PORT: String(port), WHATSAPP_PACING: String(paced) }),
        );
        ports.push(port);
      }
      for (let i = 0; i < WORKERS; i++) await waitHealthy(`http://127.0.0.1:${ports[i]}/health`, workers[i], 120_000);
      fake.reset();
      if (WARMUP > 0) {
        process.stderr.write(`${name}: warm-up, ${fmt(WARMUP)} messages\n`);
        await enqueue(queue, Array.from({ length: WARMUP }, make));
        await fake.reached(WARMUP, workers);
      }
      if (burst) {
        await queue.pause();
        await enqueue(queue, Array.from({ length: MESSAGES }, make));
      }
      // The warm-up's last sends settle before the counters are read.
      await new Promise((r) => setTimeout(r, 1_000));
      fake.reset();
      process.stderr.write(`${name}: ${fmt(MESSAGES)} messages (about ${Math.ceil(MESSAGES / RATE)} s)\n`);
      const rewrites = await aofRewrites(infra.redisUrl);
      const counters = async () => {
        const sum: Record<string, number> = {};
        for (const port of ports) for (const [k, v] of Object.entries(await workerCounters(`http://127.0.0.1:${port}/metrics`))) sum[k] = (sum[k] ?? 0) + v;
        return sum;
      };
      const counters0 = await counters();
      const stats0 = await redisCommandStats(infra.redisUrl);
      const cpu0 = cpuNow(infra, workers, fake);
      const t0 = Date.now();
      const reached = fake.reached(MESSAGES, workers);
      if (burst) await queue.resume();
      else await feed(MESSAGES, RATE);
      const end = await reached;
      const cpu1 = cpuNow(infra, workers, fake);
      const stats1 = await redisCommandStats(infra.redisUrl);
      const counters1 = await counters();
      const delta = (k: string) => ((counters1[k] ?? 0) - (counters0[k] ?? 0)) / MESSAGES;
      const load = loadavg()
        .map((l) => l.toFixed(1))
        .join(', ');
      const arrivals = (await fake.arrivals())[seed.phoneNumberId];
      const highest = Math.max(0, ...(arrivals?.perSecond ?? []).map(([, n]) => n));
      const over = (arrivals?.perSecond ?? []).filter(([, n]) => n > RATE).length;
      sentSoFar += WARMUP + MESSAGES;
      process.stderr.write(
        `${name}: ${((end - t0) / 1000).toFixed(2)} s, pace script calls ${delta('whatsapp_pace_script_calls_total').toFixed(2)}/msg, ` +
          `${commandStatsPerMessage(stats0, stats1, MESSAGES)}; load ${load}\n`,
      );
      for (const w of workers) await stopProcess(w);
      return {
        name,
        seconds: (end - t0) / 1000,
        cpu: perMessage(cpu0, cpu1, MESSAGES),
        commands: commandStatsPerMessage(stats0, stats1, MESSAGES),
        paceCalls: delta('whatsapp_pace_script_calls_total'),
        delayed: delta('carousel_paced_total'),
        highest,
        over,
        load,
        rewrites: (await aofRewrites(infra.redisUrl)) - rewrites,
      };
    };

    const unpaced = await phase('unpaced, fed at the rate', false, false);
    const paced = await phase('paced, fed at the rate', true, false);
    const backlog = await phase('paced, all queued at once', true, true);
    const statuses = await waitAllSent(db, sentSoFar);

    const row = (p: Phase) =>
      `| ${p.name} | ${fmt(MESSAGES)} | ${p.seconds.toFixed(2)} | ${fmt(MESSAGES / p.seconds)} | ${fmt(p.highest)} | ${fmt(p.cpu.workers)} | ${fmt(p.cpu.redis)} | ${fmt(p.cpu.postgres)} | ${fmt(p.cpu.fake)} | ${fmt(p.cpu.workers + p.cpu.redis)} | ${fmt(p.cpu.machine)} | ${p.load} |`;
    const ratio = (p: Phase, f: (c: Cpu) => number) => (f(p.cpu) / f(unpaced.cpu)).toFixed(2);
    const lines = [
      '',
      `### Pacing's cost per message: unpaced and paced in one run (${new Date().toISOString().slice(0, 10)})`,
      '',
      `Machine: ${machineLine(machine)}.`,
      `Load: ${fmt(MESSAGES)} queued 3-card carousel messages of one number per phase, after a ${fmt(WARMUP)}-message warm-up, drained by ${WORKERS} built channel-worker processes ` +
        `(concurrency ${concurrency} each, LOG_LEVEL=${infra.env.LOG_LEVEL}): unpaced (WHATSAPP_PACING=false) and paced at ${RATE}/s, both fed at ${RATE}/s (added a tenth of a second's worth at a time), ` +
        `then paced with all queued at once (the workers restarted for each phase); ` +
        `WhatsApp Cloud API fake in its own process; time from queue.resume() to the fake's last arrival; CPU from /proc.`,
      '',
      '| Phase | messages | seconds | messages/s | busiest second | workers µs/msg | Redis µs/msg | Postgres µs/msg | fake µs/msg | workers + Redis | whole machine µs/msg | load average after |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      row(unpaced),
      row(paced),
      row(backlog),
      '',
      `**Paced / unpaced CPU per message, both fed at ${RATE}/s: workers + Redis ${ratio(paced, (c) => c.workers + c.redis)}, workers ${ratio(paced, (c) => c.workers)}, Redis ${ratio(paced, (c) => c.redis)}, whole machine ${ratio(paced, (c) => c.machine)}** (goal ≤ 1.2).`,
      `All queued at once (a backlog of the number beyond a second waits in the delayed set: two BullMQ job cycles per message), against the same unpaced phase: workers + Redis ${ratio(backlog, (c) => c.workers + c.redis)}, whole machine ${ratio(backlog, (c) => c.machine)}.`,
      '',
      `Pace script calls per message: unpaced ${unpaced.paceCalls.toFixed(2)}, paced ${paced.paceCalls.toFixed(2)}, all queued at once ${backlog.paceCalls.toFixed(2)}; ` +
        `waits in the delayed set per message: ${paced.delayed.toFixed(2)} and ${backlog.delayed.toFixed(2)}.`,
      '',
      `Redis commands per message (INFO commandstats): unpaced ${unpaced.commands}; paced ${paced.commands}; all queued at once ${backlog.commands}.`,
      '',
      `Check: message rows by status ${JSON.stringify(statuses)} (expected ${fmt(sentSoFar)} sent, warm-ups included); paced seconds over ${RATE}: ${paced.over} and ${backlog.over}.`,
      ...[unpaced, paced, backlog].filter((p) => p.rewrites > 0).map((p) => `- Redis rewrote its AOF ${p.rewrites}× during the ${p.name} phase.`),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
    for (const p of [paced, backlog]) if (p.over > 0) failures.push(`${p.name}: ${p.over} seconds over ${RATE}`);
    if ((statuses.sent ?? 0) !== sentSoFar) failures.push(`only ${statuses.sent ?? 0} of ${sentSoFar} message rows are sent`);
  } finally {
    await close();
  }
  reportFailures(failures);
}

runBench(main);
