// `npm run bench:trigger`: the carousel trigger of one built gateway process against its ceiling, a plain
// Fastify server that only does a BullMQ `queue.add` (bench/baseline/fastify-bullmq-server.ts), in one
// run, on the same Postgres and Redis (AOF, appendfsync always; its AOF rewritten between turns, not
// during them), loopback only. Each gets a warm-up, then
// both are loaded in turns for BENCH_ROUNDS rounds (autocannon). Prints a Markdown block for BENCHMARKS.md.
// Exits non-zero if the gateway answered anything but 2xx, or left fewer jobs in Redis than it answered 2xx.
//
// Every request carries an Idempotency-Key of its own (BENCH_IDEMPOTENCY=0: none), and the bot's trigger quota is
// set far above the load, so that the gateway checks both on every trigger and refuses none.
//
// Variables: BENCH_CONNECTIONS (50), BENCH_SECONDS (30, per server, split over the rounds), BENCH_ROUNDS (6), BENCH_WARMUP_SECONDS (3),
//            BENCH_IDEMPOTENCY (1),
//            BENCH_COMPARE_GATEWAY (comma-separated paths to other builds' dist/apps/gateway/src/main.js, e.g.
//            of earlier commits: each loaded in the same turns as one more server, on a Redis database of its
//            own, so that builds' CPU per answer are compared under the same load on the host),
//            BENCH_CPU_PROF=1 (both servers run with --cpu-prof, profiles in .local/profiles/<server>/).
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { Queue } from 'bullmq';
import { QueueNames } from '@platform/contracts';
import { freePort } from '@platform/local-infra';
import { carouselBody } from '@platform/testing';
import {
  BenchInfra,
  aofRewrites,
  aofSize,
  holdAofRewrites,
  rewriteAofIfDoubled,
  cpuSecondsOf,
  cpuSecondsWithChildren,
  describeMachine,
  fmt,
  machineLine,
  startInfra,
  startNode,
  stopProcess,
  waitHealthy,
  runBench,
  reportFailures,
  redisCommandStats,
} from './common.js';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const IDEMPOTENCY = process.env.BENCH_IDEMPOTENCY !== '0';
/**
 * Requests per second offered to each server (autocannon's overallRate), 0 for as many as it answers. At
 * a rate both servers keep up with, the CPU per answer compares builds with less noise than the peak
 * rate: each answers the same requests, in batches of the same sizes.
 */
const OFFERED_RATE = Number(process.env.BENCH_OFFERED_RATE ?? 0);
/** Far above what one gateway can answer in a minute: the quota is checked on every trigger and never reached. */
const BENCH_QUOTA_PER_MINUTE = 10_000_000;
const BASELINE_QUEUE = 'bench-baseline-trigger';
const CLAIMING_BASELINE = 'baseline claiming the key (Fastify + BullMQ `queue.add` with deduplication)';
const PATH = '/api/engagements/notifications/v2/push';

interface Target {
  name: string;
  url: string;
  queue: string;
  /** The Redis its jobs go to. */
  redisUrl: string;
  pid: number;
}

/** CPU time per answered request during the measured run, in µs, by process. */
interface CpuPerRequest {
  server: number;
  redis: number;
  postgres: number;
  autocannon: number;
}

interface Run {
  target: Target;
  reqPerSec: number;
  total: number;
  ok: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** 2xx answers of warm-up + measured run: each must have left a job in Redis. */
  okIncludingWarmup: number;
  badIncludingWarmup: number;
  jobsInRedis: number;
  aofRewritesDuringRun: number;
  /** AOF bytes per 2xx answer (what Redis writes, and later rewrites, for each). */
  aofBytesPerAnswer: number;
  cpu: CpuPerRequest;
  /** Redis commands per 2xx answer during the measured run (INFO commandstats; a script's own commands counted too), by command. */
  commands: Map<string, number>;
  /** µs Redis spent in its commands per 2xx answer (INFO commandstats; a script's time holds its own commands'), by command: what Redis did besides its I/O, AOF writes and rewrites. */
  commandUsec: Map<string, number>;
}

function cpuNow(infra: BenchInfra, serverPid: number) {
  const own = process.cpuUsage();
  return {
    server: cpuSecondsOf(serverPid),
    redis: cpuSecondsOf(infra.pids.redis),
    postgres: cpuSecondsWithChildren(infra.pids.postgres),
    autocannon: (own.user + own.system) / 1e6,
  };
}

/** A new Idempotency-Key on every request (both servers get the same kind of request bytes). */
const keyPrefix = randomBytes(6).toString('hex');
let keysSent = 0;
const withIdempotencyKey = (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `bench-${keyPrefix}-${keysSent++}` } });

async function load(url: string, headers: Record<string, string>, body: string, seconds: number) {
  const requests = IDEMPOTENCY ? [{ setupRequest: withIdempotencyKey }] : undefined;
  return autocannon({ url, method: 'POST', headers, body, connections: CONNECTIONS, duration: seconds, requests, ...(OFFERED_RATE > 0 && { overallRate: OFFERED_RATE }) });
}

async function setBotQuota(databaseUrl: string, botId: string, perMinute: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('UPDATE bots SET trigger_quota_per_minute = $1 WHERE id = $2', [perMinute, botId]);
  } finally {
    await client.end();
  }
}

async function jobsIn(redisUrl: string, name: string): Promise<number> {
  const queue = new Queue(name, { connection: { url: redisUrl } });
  const counts = await queue.getJobCounts('wait', 'delayed', 'prioritized', 'active', 'completed', 'failed');
  await queue.close();
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

type CommandStats = Awaited<ReturnType<typeof redisCommandStats>>;

interface Segment {
  result: autocannon.Result;
  cpu: Record<keyof CpuPerRequest, number>;
  rewrites: number;
  /** Bytes the segment's load added to the AOF. */
  aofBytes: number;
  /** Commands Redis ran during the segment, by name (only this target was loaded meanwhile), and the µs they took. */
  commands: Map<string, { calls: number; usec: number }>;
}

/** The bench's own readings and connections, not the server's work. */
const BENCH_OWN_COMMANDS = /^(info|client|hello|select|quit)\b/;

function commandsBetween(before: CommandStats, after: CommandStats): Map<string, { calls: number; usec: number }> {
  const out = new Map<string, { calls: number; usec: number }>();
  for (const [name, a] of after) {
    if (BENCH_OWN_COMMANDS.test(name)) continue;
    const calls = a.calls - (before.get(name)?.calls ?? 0);
    if (calls > 0) out.set(name, { calls, usec: a.usec - (before.get(name)?.usec ?? 0) });
  }
  return out;
}

/** One measured stretch of load on one target, with the CPU each process used meanwhile. */
async function segment(infra: BenchInfra, target: Target, headers: Record<string, string>, body: string, seconds: number): Promise<Segment> {
  const rewrites = await aofRewrites(infra.redisUrl);
  const aofBefore = await aofSize(infra.redisUrl);
  const statsBefore = await redisCommandStats(infra.redisUrl);
  const before = cpuNow(infra, target.pid);
  const result = await load(target.url, headers, body, seconds);
  const after = cpuNow(infra, target.pid);
  const commands = commandsBetween(statsBefore, await redisCommandStats(infra.redisUrl));
  // max(0, …): a Postgres backend that exits mid-run takes its CPU time out of the sum.
  const used = (k: keyof CpuPerRequest) => Math.max(0, after[k] - before[k]);
  const cpu = { server: used('server'), redis: used('redis'), postgres: used('postgres'), autocannon: used('autocannon') };
  return { result, cpu, rewrites: (await aofRewrites(infra.redisUrl)) - rewrites, aofBytes: (await aofSize(infra.redisUrl)) - aofBefore, commands };
}

/** The gateway against the baseline that claims each key too, when there is one. */
function claimingRatio(gw: Run, others: Run[]): string[] {
  const claiming = others.find((r) => r.target.name === CLAIMING_BASELINE);
  if (!claiming) return [];
  const ratio = (gw.reqPerSec / claiming.reqPerSec).toFixed(2);
  return ['', OFFERED_RATE > 0 ? `Ratio gateway / baseline claiming the key: ${ratio} at an offered rate.` : `**Ratio gateway / baseline claiming the key: ${ratio}.**`];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const bad = (x?: autocannon.Result) => (x ? x.non2xx + x.errors + x.timeouts : 0);

/** Folds a target's warm-up and measured segments into one row of figures. */
async function summarise(infra: BenchInfra, target: Target, warm: autocannon.Result | undefined, segments: Segment[]): Promise<Run> {
  const results = segments.map((s) => s.result);
  const ok = sum(results.map((r) => r['2xx']));
  const perRequest = (k: keyof CpuPerRequest) => (sum(segments.map((s) => s.cpu[k])) * 1e6) / Math.max(1, ok);
  const commands = new Map<string, number>();
  const commandUsec = new Map<string, number>();
  for (const s of segments) {
    for (const [name, { calls, usec }] of s.commands) {
      commands.set(name, (commands.get(name) ?? 0) + calls / Math.max(1, ok));
      commandUsec.set(name, (commandUsec.get(name) ?? 0) + usec / Math.max(1, ok));
    }
  }
  return {
    target,
    reqPerSec: sum(results.map((r) => r.requests.total)) / sum(results.map((r) => r.duration)),
    total: sum(results.map((r) => r.requests.total)),
    ok,
    p50: median(results.map((r) => r.latency.p50)),
    p90: median(results.map((r) => r.latency.p90)),
    p99: median(results.map((r) => r.latency.p99)),
    max: Math.max(...results.map((r) => r.latency.max)),
    non2xx: sum(results.map((r) => r.non2xx)),
    errors: sum(results.map((r) => r.errors)),
    timeouts: sum(results.map((r) => r.timeouts)),
    okIncludingWarmup: ok + (warm?.['2xx'] ?? 0),
    badIncludingWarmup: sum(results.map((r) => bad(r))) + bad(warm),
    jobsInRedis: await jobsIn(target.redisUrl, target.queue),
    aofRewritesDuringRun: sum(segments.map((s) => s.rewrites)),
    aofBytesPerAnswer: sum(segments.map((s) => s.aofBytes)) / Math.max(1, ok),
    cpu: { server: perRequest('server'), redis: perRequest('redis'), postgres: perRequest('postgres'), autocannon: perRequest('autocannon') },
    commands,
    commandUsec,
  };
}

/**
 * Warms both targets up, then loads them in turns for ROUNDS rounds, each round starting one target later
 * (baseline, gateway; gateway, baseline; ...): on a loaded host the server right after the baseline
 * measured more CPU per answer than the same build later in the round (a run of 2026-11-26 with one build
 * loaded twice: 392 against 335 µs). Turns, and no fixed place in them, make whatever else the machine
 * does during the run weigh on all targets alike.
 */
async function measureInTurns(infra: BenchInfra, targets: Target[], headers: Record<string, string>, body: string): Promise<Run[]> {
  const warm: Array<autocannon.Result | undefined> = [];
  for (const target of targets) {
    process.stderr.write(`${target.name}: ${WARMUP_SECONDS} s warm-up\n`);
    warm.push(WARMUP_SECONDS > 0 ? await load(target.url, headers, body, WARMUP_SECONDS) : undefined);
  }
  const segments: Segment[][] = targets.map(() => []);
  for (let round = 1; round <= ROUNDS; round++) {
    for (let k = 0; k < targets.length; k++) {
      const i = (k + round - 1) % targets.length;
      const target = targets[i];
      if (await rewriteAofIfDoubled(infra.redisUrl)) process.stderr.write('(Redis rewrote its AOF between turns)\n');
      process.stderr.write(`round ${round}/${ROUNDS}: ${target.name}, ${SECONDS / ROUNDS} s, ${CONNECTIONS} connections`);
      const s = await segment(infra, target, headers, body, SECONDS / ROUNDS);
      segments[i].push(s);
      const perOk = (x: number) => x / Math.max(1, s.result['2xx']);
      const commands = perOk(sum([...s.commands.values()].map((c) => c.calls)));
      process.stderr.write(
        `: ${fmt(s.result.requests.average)} req/s, ${fmt(perOk(s.cpu.server * 1e6))} µs server CPU, ${fmt(perOk(s.cpu.redis * 1e6))} µs Redis CPU, ${commands.toFixed(2)} Redis commands per request\n`,
      );
    }
  }
  return Promise.all(targets.map((t, i) => summarise(infra, t, warm[i], segments[i])));
}

async function main(): Promise<void> {
  const infra = await startInfra('trigger');
  const children: ChildProcess[] = [];
  try {
    await setBotQuota(infra.databaseUrl, infra.seed.botId, BENCH_QUOTA_PER_MINUTE);
    await holdAofRewrites(infra.redisUrl);
    const machine = await describeMachine(infra);
    const gatewayPort = await freePort();
    const baselinePort = await freePort();
    // BENCH_CPU_PROF=1: V8 CPU profiles of both servers in .local/profiles/<server>/ (for `node --cpu-prof` analysis).
    const profile = (server: string) => (process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=.local/profiles/${server}`] : []);
    // Each server queues into a Redis database of its own, so that none works in a keyspace the others
    // fill: with the gateway beside the baseline's jobs in database 0, a build compared in database 1
    // answered more in the same turns.
    const redisDb = (n: number) => `${infra.redisUrl.replace(/\/\d*$/, '')}/${n}`;
    const gatewayRedisUrl = redisDb(1);
    const gateway = startNode([...profile('gateway'), 'dist/apps/gateway/src/main.js'], { ...infra.env, REDIS_URL: gatewayRedisUrl, PORT: String(gatewayPort) });
    children.push(gateway);
    const baseline = startNode([...profile('baseline'), 'dist/bench/baseline/fastify-bullmq-server.js'], {
      REDIS_URL: infra.redisUrl,
      PORT: String(baselinePort),
      BASELINE_QUEUE,
    });
    children.push(baseline);
    await waitHealthy(`http://127.0.0.1:${gatewayPort}/health`, gateway);
    await waitHealthy(`http://127.0.0.1:${baselinePort}/health`, baseline);
    const compared: Target[] = [];
    // With keys, a second baseline that claims them as the gateway does (BullMQ's deduplication on the add):
    // the ratio against it is the gateway's own overhead for the same contract.
    if (IDEMPOTENCY) {
      const port = await freePort();
      const redisUrl = redisDb(12);
      const claiming = startNode([...profile('baseline-claiming'), 'dist/bench/baseline/fastify-bullmq-server.js'], {
        REDIS_URL: redisUrl,
        PORT: String(port),
        BASELINE_QUEUE,
        BASELINE_CLAIM_KEYS: '1',
      });
      children.push(claiming);
      await waitHealthy(`http://127.0.0.1:${port}/health`, claiming);
      compared.push({ name: CLAIMING_BASELINE, url: `http://127.0.0.1:${port}${PATH}?bot=${infra.seed.botId}`, queue: BASELINE_QUEUE, redisUrl, pid: claiming.pid! });
    }
    for (const [i, script] of (process.env.BENCH_COMPARE_GATEWAY ?? '').split(',').filter(Boolean).entries()) {
      const port = await freePort();
      const redisUrl = redisDb(i + 2);
      const other = startNode([...profile(`compared-${i + 1}`), script], { ...infra.env, REDIS_URL: redisUrl, PORT: String(port) });
      children.push(other);
      await waitHealthy(`http://127.0.0.1:${port}/health`, other);
      compared.push({ name: `compared gateway ${i + 1} (${script})`, url: `http://127.0.0.1:${port}${PATH}?bot=${infra.seed.botId}`, queue: QueueNames.carouselDispatch, redisUrl, pid: other.pid! });
    }

    const { seed } = infra;
    const query = `?bot=${seed.botId}`;
    const headers = { 'content-type': 'application/json', 'x-api-key': seed.apiKey };
    const body = JSON.stringify(carouselBody(seed));
    // Same request bytes to both (the baseline ignores the key and the query).
    const targets: Target[] = [
      { name: 'baseline', url: `http://127.0.0.1:${baselinePort}${PATH}${query}`, queue: BASELINE_QUEUE, redisUrl: infra.redisUrl, pid: baseline.pid! },
      { name: 'gateway', url: `http://127.0.0.1:${gatewayPort}${PATH}${query}`, queue: QueueNames.carouselDispatch, redisUrl: gatewayRedisUrl, pid: gateway.pid! },
    ];
    const [base, gw, ...others] = await measureInTurns(infra, [...targets, ...compared], headers, body);

    const ratio = gw.reqPerSec / base.reqPerSec;
    const row = (label: string, r: Run) => `| ${label} | ${fmt(r.reqPerSec)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors + r.timeouts} | ${fmt(r.total)} |`;
    const cpuRow = (label: string, r: Run) => `| ${label} | ${fmt(r.cpu.server)} | ${fmt(r.cpu.redis)} | ${fmt(r.cpu.postgres)} | ${fmt(r.cpu.autocannon)} | ${fmt(r.aofBytesPerAnswer)} |`;
    const commandRow = (label: string, r: Run) => {
      const top = [...r.commands].sort((a, b) => b[1] - a[1]);
      // A script's time holds the time of the commands it ran (listed besides it).
      const inScripts = sum(top.filter(([name]) => /^(eval|evalsha|fcall)$/.test(name)).map(([name]) => r.commandUsec.get(name) ?? 0));
      return `| ${label} | ${sum(top.map(([, n]) => n)).toFixed(2)} | ${inScripts.toFixed(1)} | ${top.map(([name, n]) => `${name} ${n.toFixed(2)} (${(r.commandUsec.get(name) ?? 0).toFixed(1)} µs)`).join(', ')} |`;
    };
    const notes: string[] = [];
    for (const r of [base, gw, ...others]) {
      if (r.aofRewritesDuringRun > 0) notes.push(`- Redis rewrote its AOF ${r.aofRewritesDuringRun}× during the ${r.target.name} run.`);
      if (r.errors + r.timeouts > 0) notes.push(`- ${r.target.name}: ${r.errors} connection errors, ${r.timeouts} timeouts.`);
    }
    const gatewayLost = gw.okIncludingWarmup - gw.jobsInRedis;
    const lines = [
      '',
      `### Carousel trigger: gateway vs. Fastify + BullMQ add (${new Date().toISOString().slice(0, 10)})`,
      '',
      `Machine: ${machineLine(machine)}.`,
      `Load: autocannon, ${CONNECTIONS} connections${OFFERED_RATE > 0 ? `, ${fmt(OFFERED_RATE)} requests/s offered` : ''}, ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s measured per server in ${ROUNDS} turns of ${SECONDS / ROUNDS} s (each round starting one server later); ` +
        `the same 3-card trigger body to both${IDEMPOTENCY ? ', each request with an Idempotency-Key of its own' : ', no Idempotency-Key'}; ` +
        `the bot's trigger quota checked on every trigger (${fmt(BENCH_QUOTA_PER_MINUTE)}/min, never reached); gateway = one built process (dist/apps/gateway/src/main.js)${process.env.BENCH_CPU_PROF ? ' with --cpu-prof' : ''}.`,
      '',
      '| Server | req/s (avg) | p50 ms | p99 ms | non-2xx | requests |',
      '|---|---:|---:|---:|---:|---:|',
      row('Fastify + BullMQ `queue.add` (baseline)', base),
      row('Gateway `POST /api/engagements/notifications/v2/push`', gw),
      ...others.map((r) => row(r.target.name, r)),
      '',
      OFFERED_RATE > 0
        ? `Ratio gateway / baseline: ${ratio.toFixed(2)} at an offered rate (not the peak: compare the CPU per answer below).`
        : `**Ratio gateway / baseline: ${ratio.toFixed(2)}** (target ≥ 0.85).`,
      ...claimingRatio(gw, others),
      '',
      'CPU time per 2xx answer during the measured run (µs; from /proc, all threads of each process), and what each answer wrote to the AOF. Redis rewrites its AOF between turns, not during them (`rewriteAofIfDoubled`):',
      '',
      '| Server | server process | Redis | Postgres | autocannon | AOF bytes per answer |',
      '|---|---:|---:|---:|---:|---:|',
      cpuRow('baseline', base),
      cpuRow('gateway', gw),
      ...others.map((r) => cpuRow(r.target.name, r)),
      '',
      `**CPU per 2xx answer, gateway / baseline: server ${(gw.cpu.server / base.cpu.server).toFixed(2)}, Redis ${(gw.cpu.redis / base.cpu.redis).toFixed(2)}.** Load average at the end: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')}.`,
      '',
      'Redis commands per 2xx answer during the measured run (INFO commandstats; the commands a script runs are counted besides its `evalsha`):',
      '',
      '| Server | commands | µs in scripts | by command (µs per answer) |',
      '|---|---:|---:|---|',
      commandRow('baseline', base),
      commandRow('gateway', gw),
      ...others.map((r) => commandRow(r.target.name, r)),
      '',
      `Jobs in Redis after the runs: gateway ${fmt(gw.jobsInRedis)} for ${fmt(gw.okIncludingWarmup)} 2xx answers (warm-up included), ` +
        `baseline ${fmt(base.jobsInRedis)} for ${fmt(base.okIncludingWarmup)}.`,
      ...(notes.length ? ['', ...notes] : []),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');
    const failures: string[] = [];
    if (gw.badIncludingWarmup > 0) failures.push(`gateway answered ${gw.badIncludingWarmup} requests with non-2xx, errors or timeouts`);
    if (gatewayLost > 0) failures.push(`gateway answered ${gatewayLost} more 2xx than it left jobs in Redis`);
    if (gw.okIncludingWarmup === 0) failures.push('gateway answered no 2xx at all');
    reportFailures(failures);
  } finally {
    for (const child of children) await stopProcess(child);
    await infra.stop();
  }
}

runBench(main);
