// Shared plumbing of the benchmarks: local Postgres + Redis, a seeded carousel bot, child processes,
// and the machine description printed next to the figures.
import { ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, hash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, platform, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import pg from 'pg';
import { platformNodeOptions } from '@platform/common';
import { WhatsAppRetryEnv, WorkerEnv, loadEnv, readEnv } from '@platform/config';
import { migrate } from '@platform/database';
import { startLocalPostgres, startLocalRedis, startLocalRedisCluster } from '@platform/local-infra';
import type { RedisTarget } from '@platform/queue';
import { TEST_ENCRYPTION_KEYS, SeededBot, carouselBody, seedCarouselBot } from '@platform/testing';
import { CliModule } from '../apps/cli/src/cli.module.js';
import type { TriggerSource } from './queued-trigger.js';

export interface BenchInfra {
  databaseUrl: string;
  /** The Redis server; on a cluster, one of its nodes (for its version and the calibration's PINGs). */
  redisUrl: string;
  /** Where the platform's Redis is: `REDIS_URL`, or a cluster's `REDIS_CLUSTER_NODES` (as in `env`). */
  redisTarget: RedisTarget;
  /** Variables every platform process of the benchmark gets. */
  env: Record<string, string>;
  seed: SeededBot;
  /** Process ids of the Postgres postmaster (its backends are its children) and of Redis (on a cluster, its first node). */
  pids: { postgres: number; redis: number; redisNodes: number[] };
  /** Stops Postgres and Redis and removes their data. */
  stop(): Promise<void>;
}

/**
 * Postgres and Redis (AOF, appendfsync always) in a temporary directory, migrated, with one carousel bot.
 * With `cluster`, Redis is a 6-node Redis Cluster (3 masters, 3 replicas) on loopback instead.
 */
export async function startInfra(name: string, opts: { cluster?: boolean } = {}): Promise<BenchInfra> {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err) => process.stderr.write(`cleanup: ${err}\n`));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const postgres = await startLocalPostgres({ dataDir: join(dir, 'pg') });
    stops.push(() => postgres.stop());
    let redisUrl: string;
    let redisTarget: RedisTarget & Record<string, string>;
    let nodeUrls: string[];
    if (opts.cluster) {
      const cluster = await startLocalRedisCluster({ dataDir: join(dir, 'redis-cluster') });
      stops.push(() => cluster.stop());
      nodeUrls = cluster.nodes.map((n) => `redis://127.0.0.1:${n.port}`);
      redisUrl = nodeUrls[0];
      redisTarget = { REDIS_CLUSTER_NODES: cluster.seeds };
    } else {
      const redis = await startLocalRedis({ dataDir: join(dir, 'redis') });
      stops.push(() => redis.stop());
      nodeUrls = [redis.url];
      redisUrl = redis.url;
      redisTarget = { REDIS_URL: redis.url };
    }
    const databaseUrl = await postgres.createDatabase('bench');
    await migrate(databaseUrl, join(process.cwd(), 'prisma', 'migrations'));
    const env = {
      DATABASE_URL: databaseUrl,
      ...redisTarget,
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    };
    const cli = await NestFactory.createApplicationContext(CliModule.forRoot(env), { logger: ['error'] });
    const seed = await seedCarouselBot(cli);
    await cli.close();
    const redisNodes = await Promise.all(nodeUrls.map(redisPid));
    const pids = { postgres: Number(readFileSync(join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]), redis: redisNodes[0], redisNodes };
    return { databaseUrl, redisUrl, redisTarget, env, seed, pids, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** What the channel-worker benchmarks (dispatch, pacing) start from. */
export interface BenchSetup {
  infra: BenchInfra;
  machine: Machine;
  /** The retry settings the channel workers read from infra.env (the jobs carry their attempts). */
  retry: WhatsAppRetryEnv;
  /** WORKER_CONCURRENCY the channel workers read from infra.env. */
  concurrency: number;
  /** A client of the benchmark's database, ended by close(). */
  db: pg.Client;
  /** A carousel trigger of the seeded bot and template through `senderId`, to one recipient. */
  source(senderId: string): TriggerSource;
  /** Closers close() runs first to last: unshift what must close before what was started earlier. */
  cleanups: Array<() => Promise<unknown>>;
  /** Runs the cleanups (a failing one is reported and the rest still run), then stops Postgres and Redis. */
  close(): Promise<void>;
}

/** startInfra, the machine's description, the workers' settings and a database client; the caller closes it. */
export async function benchSetup(name: string): Promise<BenchSetup> {
  const infra = await startInfra(name);
  const cleanups: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const cleanup of cleanups) await cleanup().catch((err) => process.stderr.write(`cleanup: ${err}\n`));
    await infra.stop();
  };
  try {
    const machine = await describeMachine(infra);
    const env = loadEnv([WhatsAppRetryEnv, WorkerEnv], readEnv(infra.env));
    const db = new pg.Client({ connectionString: infra.databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());
    const { seed } = infra;
    const body = carouselBody(seed);
    const source = (senderId: string): TriggerSource => ({
      botId: seed.botId,
      templateId: seed.templateId,
      senderId,
      channel: 'whatsapp',
      recipient: body.userDetails.number.replace(/^\+/, ''),
      cards: body.notification.params.cards,
    });
    return { infra, machine, retry: env.get(WhatsAppRetryEnv), concurrency: env.get(WorkerEnv).WORKER_CONCURRENCY, db, source, cleanups, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Waits until `total` messages are `sent`, a minute at most (the last rows are marked just after the
 * fake answered them); how many messages are in each status then.
 */
export async function waitAllSent(db: pg.Client, total: number): Promise<Record<string, number>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await db.query<{ status: string; n: string }>(`SELECT "status"::text, count(*) AS n FROM "messages" GROUP BY 1`);
    const statuses = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    if ((statuses.sent ?? 0) >= total || Date.now() > deadline) return statuses;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sets the seeded bot's sender to `rate` messages a second; its id. */
export async function setSeededSenderRate(db: pg.Client, seed: { botId: string; phoneNumberId: string }, rate: number): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`UPDATE "channel_senders" SET "throughput" = $3 WHERE "bot_id" = $1 AND "phone_number_id" = $2 RETURNING "id"`, [
    seed.botId,
    seed.phoneNumberId,
    rate,
  ]);
  return rows[0].id;
}

/**
 * A number sends at most 1,000 messages/s (Meta's highest tier; the workers pace each number), fewer than
 * one worker drains: the seeded bot's sender at 1,000/s and `count` - 1 copies of it (numbers of their
 * own), so messages spread over them are all paced and the pace never binds. Their ids, the seeded first.
 */
export async function sendersAtTopTier(db: pg.Client, seed: { botId: string; phoneNumberId: string }, count: number): Promise<string[]> {
  const { rows: senders } = await db.query<{ id: string }>(`SELECT "id" FROM "channel_senders" WHERE "bot_id" = $1 AND "phone_number_id" = $2`, [seed.botId, seed.phoneNumberId]);
  await db.query(`UPDATE "channel_senders" SET "throughput" = 1000 WHERE "id" = $1`, [senders[0].id]);
  const { rows: more } = await db.query<{ id: string }>(
    `INSERT INTO "channel_senders" ("id", "bot_id", "channel", "number", "phone_number_id", "access_token_encrypted", "throughput")
     SELECT gen_random_uuid(), "bot_id", "channel", "number" || g, "phone_number_id" || g, "access_token_encrypted", 1000
     FROM "channel_senders", generate_series(1, $2::int - 1) AS g WHERE "id" = $1 RETURNING "id"`,
    [senders[0].id, count],
  );
  return [senders[0].id, ...more.map((r) => r.id)];
}

/** What the FCM fakes take to know a service account: the key its OAuth tokens are signed with. */
export interface AccountMessage {
  type: 'account';
  clientEmail: string;
  projectId: string;
  publicKey: string;
}

/**
 * A Google service account of a fresh RSA key whose tokens the loopback OAuth fake at `tokenUri` issues:
 * the account's JSON, as a bot's Firebase config holds it, and the message that tells the fake of it.
 */
export function benchServiceAccount(tokenUri: string): { account: Record<string, string>; message: AccountMessage } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const projectId = 'bench-project';
  const clientEmail = `bench@${projectId}.iam.gserviceaccount.com`;
  const account = {
    type: 'service_account',
    project_id: projectId,
    private_key_id: 'bench',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    client_email: clientEmail,
    token_uri: tokenUri,
  };
  return { account, message: { type: 'account', clientEmail, projectId, publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string } };
}

/** Runs `use` on a connection of its own to `url`, closed afterwards whatever happened. */
async function withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    return await use(redis);
  } finally {
    await redis.quit();
  }
}

async function redisPid(url: string): Promise<number> {
  const info = await withRedis(url, (redis) => redis.info('server'));
  return Number(/process_id:(\d+)/.exec(info)?.[1]);
}

/**
 * Starts `node <args>` with the given variables on top of this process's environment, and the Node flags
 * the platform's processes run with in production (PLATFORM_NODE_OPTIONS), baselines included.
 */
export function startNode(args: string[], env: Record<string, string>, fork = false): ChildProcess {
  return spawn(process.execPath, args, {
    env: { ...process.env, NODE_OPTIONS: platformNodeOptions(), ...env },
    stdio: fork ? ['inherit', 'inherit', 'inherit', 'ipc'] : 'inherit',
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopProcess(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Polls `url` until it answers 2xx; fails early if `child` exits. */
export async function waitHealthy(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process for ${url} exited with code ${child.exitCode}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not healthy within ${timeoutMs} ms`);
}

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  os: string;
  redis: string;
  postgres: string;
  calibration: Calibration;
}

/**
 * A fixed workload timed on this machine. Hosts of the same kind differ (the same code has measured
 * twice as fast on one as on another), so figures from different days are compared through these.
 */
export interface Calibration {
  /** ms for 64 SHA-256 digests of 1 MiB and 100,000 JSON round trips of a small object (best of 3) */
  cpuMs: number;
  /** mean µs of 2,000 sequential Redis PINGs over loopback (a syscall- and scheduler-bound figure) */
  redisPingUs: number;
}

async function calibrate(redis: Redis): Promise<Calibration> {
  const block = Buffer.alloc(1024 * 1024, 7);
  const sample = { messageId: '4f1c0c9e-8f0b-4bb4-9a55-8f3e2c1d0b7a', cards: [{ mediaLink: 'https://cdn.example.com/a.jpg' }], n: 3 };
  let cpuMs = Infinity;
  for (let round = 0; round < 3; round++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < 64; i++) hash('sha256', block);
    for (let i = 0; i < 100_000; i++) JSON.parse(JSON.stringify(sample));
    cpuMs = Math.min(cpuMs, Number(process.hrtime.bigint() - t) / 1e6);
  }
  const pings = 2000;
  const t = process.hrtime.bigint();
  for (let i = 0; i < pings; i++) await redis.ping();
  const redisPingUs = Number(process.hrtime.bigint() - t) / 1e3 / pings;
  return { cpuMs: Math.round(cpuMs), redisPingUs: Math.round(redisPingUs) };
}

export async function describeMachine(infra: Pick<BenchInfra, 'databaseUrl' | 'redisUrl'>): Promise<Machine> {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const cpu = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  const { info, calibration } = await withRedis(infra.redisUrl, async (redis) => ({ info: await redis.info('server'), calibration: await calibrate(redis) }));
  const db = new pg.Client({ connectionString: infra.databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");
  await db.end();
  return {
    cpu,
    cores: cpus().length,
    node: process.version,
    os: `${platform()} ${release()}`,
    redis: /redis_version:(\S+)/.exec(info)?.[1] ?? '?',
    postgres: rows[0]?.v ?? '?',
    calibration,
  };
}

export function machineLine(m: Machine): string {
  return `${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.os}; Redis ${m.redis} (AOF, appendfsync always), Postgres ${m.postgres}; all on loopback; calibration: fixed CPU work ${m.calibration.cpuMs} ms, Redis PING round trip ${m.calibration.redisPingUs} µs (lower is faster)`;
}

/** Number of AOF rewrites Redis has done so far (a rewrite during a measured run is worth knowing about). */
export async function aofRewrites(redisUrl: string): Promise<number> {
  const info = await withRedis(redisUrl, (redis) => redis.info('persistence'));
  return Number(/aof_rewrites:(\d+)/.exec(info)?.[1] ?? 0);
}

/** Redis' AOF: its size now and at its last rewrite (bytes), and whether a rewrite is under way or due. */
async function aofState(redis: Redis): Promise<{ current: number; base: number; busy: boolean }> {
  const info = await redis.info('persistence');
  const field = (name: string) => Number(new RegExp(`${name}:(\\d+)`).exec(info)?.[1] ?? 0);
  return { current: field('aof_current_size'), base: field('aof_base_size'), busy: field('aof_rewrite_in_progress') + field('aof_rewrite_scheduled') > 0 };
}

/** The AOF's size in bytes: its growth over a stretch of load is what the load wrote. */
export async function aofSize(redisUrl: string): Promise<number> {
  return withRedis(redisUrl, async (redis) => (await aofState(redis)).current);
}

/**
 * Redis rewrites its AOF once it has doubled (a fork that writes the whole dataset out). In a bench that
 * loads servers in turns, that work lands on whichever server is loaded at the moment, though every
 * server's writes grew the file, and it costs seconds of CPU as the dataset grows: enough to decide a
 * ratio by where the rewrites fell. Such benches switch the automatic rewrite off (`holdAofRewrites`) and
 * call this between turns: the same rule, applied outside the measured time.
 */
export async function rewriteAofIfDoubled(redisUrl: string): Promise<boolean> {
  return withRedis(redisUrl, async (redis) => {
    const { current, base } = await aofState(redis);
    if (current < 2 * base || current < 64 * 1024 * 1024) return false;
    await redis.bgrewriteaof();
    for (let state = await aofState(redis); state.busy; state = await aofState(redis)) await new Promise((r) => setTimeout(r, 100));
    return true;
  });
}

/** Switches Redis' automatic AOF rewrite off (see rewriteAofIfDoubled). */
export async function holdAofRewrites(redisUrl: string): Promise<void> {
  await withRedis(redisUrl, (redis) => redis.config('SET', 'auto-aof-rewrite-percentage', '0'));
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

interface ProcStat {
  pid: number;
  ppid: number;
  /** user + system CPU seconds of all its threads so far */
  cpu: number;
  /** user + system CPU seconds of its children that have exited (and been waited for) */
  exitedChildren: number;
}

function procStat(pid: number | string): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // exited meanwhile
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // USER_HZ = 100
  return { pid: Number(pid), ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / 100, exitedChildren: (Number(fields[13]) + Number(fields[14])) / 100 };
}

/** CPU seconds used so far by one process (all its threads). */
export function cpuSecondsOf(pid: number): number {
  return procStat(pid)?.cpu ?? 0;
}

/**
 * CPU seconds used so far by a process and its direct children (Postgres: the postmaster and its backends),
 * those that have exited included, so the figure never goes down when a backend ends between two readings.
 */
export function cpuSecondsWithChildren(pid: number): number {
  let total = procStat(pid)?.exitedChildren ?? 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat && (stat.pid === pid || stat.ppid === pid)) total += stat.cpu;
  }
  return total;
}

/** Prints a benchmark's failed checks on stderr and makes the process exit 1; nothing when all passed. */
export function reportFailures(failures: string[]): void {
  if (failures.length === 0) return;
  process.stderr.write(`FAILED: ${failures.join('; ')}\n`);
  process.exitCode = 1;
}

/** Runs a benchmark's `main` and exits with its exit code, or 1 and the stack when it throws. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (err: unknown) => {
      process.stderr.write(`benchmark failed: ${err instanceof Error ? err.stack : err}\n`);
      process.exit(1);
    },
  );
}

/** CPU seconds the whole machine has spent busy so far, all cores (from /proc/stat: everything but idle and iowait). */
export function machineBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  // USER_HZ = 100; fields: user nice system idle iowait irq softirq steal
  return (total - fields[3] - fields[4]) / 100;
}

/** Redis' INFO commandstats: command → calls and µs spent so far. */
export async function redisCommandStats(redisUrl: string): Promise<Map<string, { calls: number; usec: number }>> {
  const info = await withRedis(redisUrl, (redis) => redis.info('commandstats'));
  const out = new Map<string, { calls: number; usec: number }>();
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) out.set(m[1], { calls: Number(m[2]), usec: Number(m[3]) });
  return out;
}

/** The commands Redis ran between two commandstats readings, per message, most time first: "evalsha 3.1 calls 95 µs, …". */
export function commandStatsPerMessage(before: Map<string, { calls: number; usec: number }>, after: Map<string, { calls: number; usec: number }>, messages: number, top = 6): string {
  const rows = [...after]
    .map(([name, a]) => ({ name, calls: (a.calls - (before.get(name)?.calls ?? 0)) / messages, usec: (a.usec - (before.get(name)?.usec ?? 0)) / messages }))
    .filter((r) => r.calls > 0)
    .sort((a, b) => b.usec - a.usec);
  const total = rows.reduce((s, r) => ({ calls: s.calls + r.calls, usec: s.usec + r.usec }), { calls: 0, usec: 0 });
  return `${total.calls.toFixed(1)} commands, ${total.usec.toFixed(0)} µs inside Redis: ${rows
    .slice(0, top)
    .map((r) => `${r.name} ${r.calls.toFixed(2)} × ${r.usec.toFixed(1)} µs`)
    .join(', ')}`;
}

/** Sums of the counters a channel worker serves on /metrics, by name (labels folded together unless named). */
export async function workerCounters(url: string): Promise<Record<string, number>> {
  const text = await fetch(url).then(
    (r) => r.text(),
    () => '',
  );
  const out: Record<string, number> = {};
  for (const m of text.matchAll(
    /^(carousel_paced_total|carousel_paced_in_process_total|carousel_pace_refused_total|carousel_send_attempts_total|whatsapp_pace_script_calls_total|whatsapp_pace_take_waits_total|whatsapp_pace_permit_sends_total)(\{[^}]*\})? (\S+)$/gm,
  )) {
    const key = m[1] + (m[2]?.includes('outcome=') ? `:${/outcome="([^"]+)"/.exec(m[2])![1]}` : '');
    out[key] = (out[key] ?? 0) + Number(m[3]);
  }
  return out;
}
