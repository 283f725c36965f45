// `npm run bench:dispatch`: BENCH_MESSAGES (50,000) queued carousel triggers drained by ONE built
// channel-worker process (dist/apps/channel-worker/src/main.js) into the loopback WhatsApp fake, beside a
// bare BullMQ worker (bench/baseline/bare-dispatch-worker.ts) that only POSTs the same Cloud API JSON with
// the same bearer to the same fake, at the same concurrency (WORKER_CONCURRENCY). One run, one after the
// other (baseline first), same Postgres and Redis (AOF, appendfsync always), loopback only; the fake is a
// forked process (bench/whatsapp-counting-fake.ts) so it does not share the worker's CPU.
//
// The triggers are not sent over HTTP: jobs are created the way the gateway's CarouselTriggerService
// does (see queuedTrigger below) and queued with addBulk; the worker creates each message row.
// Each worker first drains BENCH_WARMUP_MESSAGES (1,000); then the queue is paused, the measured jobs
// are queued, and the clock runs from queue.resume() (first job available) to the fake accepting the
// last message. Exits non-zero unless every message row ended `sent` and the fake saw the right bearer.
//
// Variables: BENCH_MESSAGES (50000), BENCH_WARMUP_MESSAGES (1000); WORKER_CONCURRENCY etc. reach the
// channel worker as usual and the bare worker gets the same concurrency.
import 'reflect-metadata';
import { ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { JobsOptions, Queue } from 'bullmq';
import pg from 'pg';
import { WhatsAppRetryEnv, WorkerEnv, loadEnv, readEnv } from '@platform/config';
import { CarouselDispatchJob, QueueNames } from '@platform/contracts';
import { freePort } from '@platform/local-infra';
import { carouselBody } from '@platform/testing';
import { BenchInfra, aofRewrites, describeMachine, fmt, machineLine, startInfra, startNode, stopProcess, waitHealthy } from './common.js';
import type { FakeRequest, FakeStats } from './whatsapp-counting-fake.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 50_000);
const WARMUP = Number(process.env.BENCH_WARMUP_MESSAGES ?? 1_000);
const BARE_QUEUE = 'bench-bare-dispatch';
const JOBS_PER_ADD_BULK = 1_000;
/** A run fails when the fake has accepted nothing new for this long. */
const STALL_MS = 60_000;

const nowMs = () => performance.timeOrigin + performance.now();

// ── What one trigger leaves behind ──────────────────────────────────────────────────────────────────
// Keep in step with apps/gateway/src/carousel/carousel-trigger.service.ts and trigger-batcher.ts: the
// CarouselDispatchJob and the addBulk job options (the worker creates the `messages` row from the job).
// A field added to CarouselDispatchJob makes this fail to compile until it is filled in here.

interface TriggerSource {
  botId: string;
  templateId: string;
  senderId: string;
  channel: 'whatsapp';
  /** Digits only, as the service stores it (leading + removed). */
  recipient: string;
  cards: Array<{ media: { mediaLink: string }; bodyParameters?: string[] }>;
}

interface QueuedTrigger {
  name: string;
  data: CarouselDispatchJob;
  opts: JobsOptions;
}

function queuedTrigger(src: TriggerSource, config: WhatsAppRetryEnv): QueuedTrigger {
  const id = randomUUID();
  const data: CarouselDispatchJob = {
    messageId: id,
    botId: src.botId,
    templateId: src.templateId,
    senderId: src.senderId,
    channel: src.channel,
    recipient: src.recipient,
    cards: src.cards.map((c) => ({ mediaLink: c.media.mediaLink, ...(c.bodyParameters ? { bodyParameters: c.bodyParameters } : {}) })),
  };
  return {
    name: 'send',
    data,
    opts: {
      jobId: id,
      attempts: config.WHATSAPP_MAX_ATTEMPTS,
      backoff: { type: 'exponential', delay: config.WHATSAPP_BACKOFF_MS, jitter: 0.5 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  };
}

/** Queues the jobs, in chunks. */
async function enqueue(queue: Queue, triggers: QueuedTrigger[]): Promise<void> {
  for (let j = 0; j < triggers.length; j += JOBS_PER_ADD_BULK) await queue.addBulk(triggers.slice(j, j + JOBS_PER_ADD_BULK));
}

// ── The fake's process ───────────────────────────────────────────────────────────────────────────────

class Fake {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  static async start(bearer: string): Promise<Fake> {
    const child = fork(fileURLToPath(new URL('./whatsapp-counting-fake.js', import.meta.url)), [], {
      env: { ...process.env, BENCH_EXPECTED_BEARER: bearer },
      stdio: 'inherit',
    });
    const ready = await new Promise<{ baseUrl: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { baseUrl: string }));
      child.once('exit', (code) => reject(new Error(`WhatsApp fake exited with code ${code}`)));
    });
    return new Fake(child, ready.baseUrl);
  }

  private ask<T>(msg: FakeRequest, want: string): Promise<T> {
    return new Promise((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type !== want) return;
        this.child.off('message', on);
        resolve(m as T);
      };
      this.child.on('message', on);
      this.child.send(msg);
    });
  }

  reset(): void {
    this.child.send({ type: 'reset' } satisfies FakeRequest);
  }

  stats(): Promise<FakeStats> {
    return this.ask<FakeStats>({ type: 'stats' }, 'stats');
  }

  /** Resolves with the time the `total`-th message since the last reset was accepted; fails on a stall. */
  async reached(total: number, worker: ChildProcess): Promise<number> {
    const reached = this.ask<{ at: number }>({ type: 'expect', total }, 'reached');
    let last = -1;
    let lastChange = Date.now();
    for (;;) {
      const done = await Promise.race([reached, new Promise<undefined>((r) => setTimeout(r, 2_000))]);
      if (done) return done.at;
      if (worker.exitCode !== null) throw new Error(`worker exited with code ${worker.exitCode}`);
      const { accepted, rejected } = await this.stats();
      if (accepted !== last) (last = accepted), (lastChange = Date.now());
      else if (Date.now() - lastChange > STALL_MS) throw new Error(`stalled at ${accepted}/${total} accepted (${rejected} rejected)`);
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.send({ type: 'stop' } satisfies FakeRequest);
    await exited;
  }
}

// ── One measured run ─────────────────────────────────────────────────────────────────────────────────

interface RunResult {
  name: string;
  seconds: number;
  perSecond: number;
  fake: FakeStats;
  aofRewrites: number;
}

async function drain(opts: {
  name: string;
  infra: BenchInfra;
  fake: Fake;
  queue: Queue;
  worker: ChildProcess;
  make: () => QueuedTrigger;
}): Promise<RunResult & { t0: number }> {
  const { fake, queue, worker } = opts;
  fake.reset();
  if (WARMUP > 0) {
    process.stderr.write(`${opts.name}: warm-up, ${fmt(WARMUP)} messages\n`);
    await enqueue(queue, Array.from({ length: WARMUP }, opts.make));
    await fake.reached(WARMUP, worker);
  }
  process.stderr.write(`${opts.name}: queueing ${fmt(MESSAGES)} messages (queue paused)\n`);
  await queue.pause();
  const triggers = Array.from({ length: MESSAGES }, opts.make);
  await enqueue(queue, triggers);
  triggers.length = 0;
  const rewrites = await aofRewrites(opts.infra.redisUrl);
  process.stderr.write(`${opts.name}: draining\n`);
  const t0 = nowMs();
  await queue.resume();
  const end = await fake.reached(WARMUP + MESSAGES, worker);
  const seconds = (end - t0) / 1000;
  return {
    name: opts.name,
    seconds,
    perSecond: MESSAGES / seconds,
    fake: await fake.stats(),
    aofRewrites: (await aofRewrites(opts.infra.redisUrl)) - rewrites,
    t0,
  };
}

async function main(): Promise<void> {
  const infra = await startInfra('dispatch');
  const cleanups: Array<() => Promise<unknown>> = [];
  const failures: string[] = [];
  try {
    const machine = await describeMachine(infra);
    const env = loadEnv([WhatsAppRetryEnv, WorkerEnv], readEnv(infra.env));
    const config = env.get(WhatsAppRetryEnv);
    const concurrency = env.get(WorkerEnv).WORKER_CONCURRENCY;
    const { seed } = infra;
    const body = carouselBody(seed);

    const db = new pg.Client({ connectionString: infra.databaseUrl });
    await db.connect();
    cleanups.push(() => db.end());
    const { rows: senders } = await db.query<{ id: string }>(
      `SELECT "id" FROM "channel_senders" WHERE "bot_id" = $1 AND "phone_number_id" = $2`,
      [seed.botId, seed.phoneNumberId],
    );
    const { rows: templates } = await db.query<{ provider_name: string; language: string; card_header_format: string }>(
      `SELECT "provider_name", "language", "card_header_format"::text FROM "templates" WHERE "id" = $1`,
      [seed.templateId],
    );
    const source: TriggerSource = {
      botId: seed.botId,
      templateId: seed.templateId,
      senderId: senders[0].id,
      channel: 'whatsapp',
      recipient: body.userDetails.number.replace(/^\+/, ''),
      cards: body.notification.params.cards,
    };
    const make = () => queuedTrigger(source, config);

    const fake = await Fake.start(seed.accessToken);
    cleanups.unshift(() => fake.stop());

    // Baseline: the bare BullMQ worker on its own queue (no rows).
    const bareQueue = new Queue(BARE_QUEUE, { connection: { url: infra.redisUrl } });
    cleanups.unshift(() => bareQueue.close());
    const bare = startNode(
      ['dist/bench/baseline/bare-dispatch-worker.js'],
      {
        REDIS_URL: infra.redisUrl,
        WHATSAPP_API_BASE_URL: fake.baseUrl,
        BARE_QUEUE,
        BARE_CONCURRENCY: String(concurrency),
        BARE_PHONE_NUMBER_ID: seed.phoneNumberId,
        BARE_ACCESS_TOKEN: seed.accessToken,
        BARE_RECIPIENT: source.recipient,
        BARE_TEMPLATE_NAME: templates[0].provider_name,
        BARE_TEMPLATE_LANGUAGE: templates[0].language,
        BARE_CARD_HEADER_FORMAT: templates[0].card_header_format,
      },
      true,
    );
    await new Promise<void>((resolve, reject) => {
      bare.once('message', () => resolve());
      bare.once('exit', (code) => reject(new Error(`bare worker exited with code ${code}`)));
    });
    const base = await drain({ name: 'bare worker', infra, fake, queue: bareQueue, worker: bare, make });
    await stopProcess(bare);

    // The channel worker, one process, on the real queue (it creates the rows).
    const healthPort = await freePort();
    const worker = startNode([...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=.local/profiles'] : []), 'dist/apps/channel-worker/src/main.js'], {
      ...infra.env,
      WHATSAPP_API_BASE_URL: fake.baseUrl,
      WORKER_HEALTH_PORT: String(healthPort),
    });
    cleanups.unshift(() => stopProcess(worker));
    await waitHealthy(`http://127.0.0.1:${healthPort}/health`, worker);
    const queue = new Queue(QueueNames.carouselDispatch, { connection: { url: infra.redisUrl } });
    cleanups.unshift(() => queue.close());
    const real = await drain({ name: 'channel worker', infra, fake, queue, worker, make });

    // Every row must end `sent` (the last rows are marked just after the fake answered them).
    const total = WARMUP + MESSAGES;
    let statuses: Record<string, number> = {};
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await db.query<{ status: string; n: string }>(`SELECT "status"::text, count(*) AS n FROM "messages" GROUP BY 1`);
      statuses = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
      if ((statuses.sent ?? 0) >= total || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const allSentSeconds = (nowMs() - real.t0) / 1000;
    const { rows: attemptRows } = await db.query<{ n: string }>(`SELECT coalesce(sum("attempts"), 0) AS n FROM "messages"`);
    await stopProcess(worker);

    const ratio = real.perSecond / base.perSecond;
    const sameJson = base.fake.firstBody === real.fake.firstBody && base.fake.firstPath === real.fake.firstPath;
    const row = (label: string, r: RunResult) => `| ${label} | ${fmt(MESSAGES)} | ${r.seconds.toFixed(2)} | ${fmt(r.perSecond)} |`;
    const notes: string[] = [];
    for (const r of [base, real]) if (r.aofRewrites > 0) notes.push(`- Redis rewrote its AOF ${r.aofRewrites}× during the ${r.name} run.`);
    const lines = [
      '',
      `### Carousel dispatch: channel worker vs. bare BullMQ worker (${new Date().toISOString().slice(0, 10)})`,
      '',
      `Machine: ${machineLine(machine)}.`,
      `Load: ${fmt(MESSAGES)} queued 3-card carousel triggers per worker after a ${fmt(WARMUP)}-message warm-up, concurrency ${concurrency} (WORKER_CONCURRENCY) for both, ` +
        `one after the other (baseline first); WhatsApp Cloud API fake (WhatsAppCloudSandbox, not recording) in its own process; ` +
        `time from queue.resume() to the fake accepting the last message; channel worker = one built process (dist/apps/channel-worker/src/main.js), LOG_LEVEL=${infra.env.LOG_LEVEL}.`,
      '',
      '| Worker | messages | seconds | messages/s |',
      '|---|---:|---:|---:|',
      row('Bare BullMQ worker: render + `fetch` POST (baseline)', base),
      row('Channel worker (one process)', real),
      '',
      `**Ratio channel worker / bare worker: ${ratio.toFixed(2)}** (target ≥ 0.8).`,
      '',
      `Channel worker check: message rows by status ${JSON.stringify(statuses)} (expected ${fmt(total)} sent, warm-up included), ` +
        `${fmt(Number(attemptRows[0].n))} attempts; all rows \`sent\` ${allSentSeconds.toFixed(2)} s after resume. ` +
        `Fake: ${fmt(real.fake.accepted)} accepted, ${real.fake.rejected} rejected, ${real.fake.wrongBearer} with a wrong bearer; ` +
        `first request body and path ${sameJson ? 'identical' : 'DIFFERENT'} for both workers.`,
      ...(notes.length ? ['', ...notes] : []),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');

    if ((statuses.sent ?? 0) !== total) failures.push(`only ${statuses.sent ?? 0} of ${total} message rows are sent`);
    for (const r of [base, real]) {
      if (r.fake.wrongBearer > 0) failures.push(`${r.name}: ${r.fake.wrongBearer} requests with a wrong bearer`);
      if (r.fake.rejected > 0) failures.push(`${r.name}: ${r.fake.rejected} requests rejected by the fake`);
    }
    if (!sameJson) failures.push(`the workers sent different JSON:\n  bare:    ${base.fake.firstPath} ${base.fake.firstBody}\n  channel: ${real.fake.firstPath} ${real.fake.firstBody}`);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((err) => process.stderr.write(`cleanup: ${err}\n`));
    await infra.stop();
  }
  if (failures.length) {
    process.stderr.write(`FAILED: ${failures.join('; ')}\n`);
    process.exitCode = 1;
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    process.stderr.write(`benchmark failed: ${err instanceof Error ? err.stack : err}\n`);
    process.exit(1);
  },
);
