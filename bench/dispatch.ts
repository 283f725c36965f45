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
// Variables: BENCH_MESSAGES (50000), BENCH_SENDERS (8 numbers at 1,000/s each), BENCH_WARMUP_MESSAGES (1000); WORKER_CONCURRENCY etc. reach the
// channel worker as usual and the bare worker gets the same concurrency.
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { QueueNames } from '@platform/contracts';
import { freePort } from '@platform/local-infra';
import { BenchInfra, aofRewrites, benchSetup, fmt, machineLine, sendersAtTopTier, startNode, stopProcess, waitHealthy, runBench, reportFailures, waitAllSent } from './common.js';
import { QueuedTrigger, enqueue, queuedTrigger } from './queued-trigger.js';
import type { FakeStats } from './whatsapp-counting-fake.js';
import { WhatsAppFakeProcess } from './whatsapp-fake-process.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 50_000);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP_MESSAGES ?? 1_000);
const BARE_QUEUE = 'bench-bare-dispatch';

const nowMs = () => performance.timeOrigin + performance.now();

// ── One measured run ─────────────────────────────────────────────────────────────────────────────────

interface RunResult {
  name: string;
  seconds: number;
  perSecond: number;
  fake: FakeStats;
  aofRewrites: number;
}

async function drain(opts: { name: string; infra: BenchInfra; fake: WhatsAppFakeProcess; queue: Queue; worker: ChildProcess; make: () => QueuedTrigger }): Promise<RunResult & { t0: number }> {
  const { fake, queue, worker } = opts;
  fake.reset();
  if (WARMUP > 0) {
    process.stderr.write(`${opts.name}: warm-up, ${fmt(WARMUP)} messages\n`);
    await enqueue(queue, Array.from({ length: WARMUP }, opts.make));
    await fake.reached(WARMUP, [worker]);
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
  const end = await fake.reached(WARMUP + MESSAGES, [worker]);
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
  const { infra, machine, retry, concurrency, db, source, cleanups, close } = await benchSetup('dispatch');
  const { seed } = infra;
  const failures: string[] = [];
  try {
    const { rows: templates } = await db.query<{ provider_name: string; language: string; card_header_format: string }>(
      `SELECT "provider_name", "language", "card_header_format"::text FROM "templates" WHERE "id" = $1`,
      [seed.templateId],
    );
    const senderIds = await sendersAtTopTier(db, seed, SENDERS);
    let nextSender = 0;
    const make = () => queuedTrigger(source(senderIds[nextSender++ % senderIds.length]), retry);

    const fake = await WhatsAppFakeProcess.start(seed.accessToken);
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
        BARE_RECIPIENT: source(senderIds[0]).recipient,
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

    // Every row must end `sent`.
    const total = WARMUP + MESSAGES;
    const statuses = await waitAllSent(db, total);
    const allSentSeconds = (nowMs() - real.t0) / 1000;
    const { rows: attemptRows } = await db.query<{ n: string }>(`SELECT coalesce(sum("attempts"), 0) AS n FROM "messages"`);
    await stopProcess(worker);

    const ratio = real.perSecond / base.perSecond;
    // Which sender's message arrives first is a race between concurrent sends: the paths must name one of
    // the senders' numbers, the bodies (the same recipient and cards for every sender) must be the same.
    const senderPath = (path: string | undefined) => (path ?? '').replace(/^\/v[\d.]+\/(\d+)\/messages$/, (_, id: string) => (id.startsWith(seed.phoneNumberId) ? 'ok' : id));
    const sameJson = base.fake.firstBody === real.fake.firstBody && senderPath(base.fake.firstPath) === 'ok' && senderPath(real.fake.firstPath) === 'ok';
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
    await close();
  }
  reportFailures(failures);
}

runBench(main);
