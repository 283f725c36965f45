// `npm run bench:pacing`: per-sender pacing across worker replicas. BENCH_PACED_MESSAGES (5,000) queued
// carousel messages for one sender number whose throughput is BENCH_RATE (80) messages/s, then
// BENCH_OTHER_MESSAGES (200) for a second number (its throughput the default 80), drained by
// BENCH_WORKERS (3) built channel-worker processes (dist/apps/channel-worker/src/main.js) into the
// loopback WhatsApp fake (a forked process, bench/whatsapp-counting-fake.ts), which counts each number's
// messages per wall-clock second as they reach it: the receiving end, as Meta counts.
//
// The jobs are created the way the gateway's CarouselTriggerService does (bench/queued-trigger.ts) and
// queued while the queue is paused, the paced number's first; the clock runs from queue.resume().
// Prints the set rate, the highest count of the paced number in any second, the seconds over the rate
// (must be 0), the share of the rate used while draining (the seconds between the first and the last,
// which are partial; goal at 1,000/s: at least 95 %), the drain time against the ideal (messages /
// rate), and when the other number's messages were all sent. Exits non-zero when a second was over the
// rate or a message row did not end `sent`.
//
// Variables: BENCH_RATE (80, 1-1000), BENCH_PACED_MESSAGES (5000), BENCH_OTHER_MESSAGES (200),
// BENCH_WORKERS (3), BENCH_CPU_PROF=1 (a V8 CPU profile of each worker in .local/profiles);
// WORKER_CONCURRENCY etc. reach the channel workers as usual. Meta's top tier:
// `BENCH_RATE=1000 BENCH_PACED_MESSAGES=30000 npm run bench:pacing`.
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { Queue } from 'bullmq';
import { QueueNames } from '@platform/contracts';
import { freePort } from '@platform/local-infra';
import { aofRewrites, benchSetup, fmt, machineLine, startNode, stopProcess, waitHealthy, runBench, reportFailures, waitAllSent, workerCounters, setSeededSenderRate } from './common.js';
import { enqueue, queuedTrigger } from './queued-trigger.js';
import type { NumberArrivals } from './whatsapp-counting-fake.js';
import { WhatsAppFakeProcess } from './whatsapp-fake-process.js';

const RATE = Number(process.env.BENCH_RATE ?? 80);
const PACED = Number(process.env.BENCH_PACED_MESSAGES ?? 5_000);
const OTHER = Number(process.env.BENCH_OTHER_MESSAGES ?? 200);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 3);
const OTHER_NUMBER = '15550002222';
const OTHER_PHONE_NUMBER_ID = '1065999000111';

/** "80×61, 79×2, 41×1": how many seconds saw each count, highest count first. */
function histogram(perSecond: Array<[number, number]>): string {
  const seen = new Map<number, number>();
  for (const [, n] of perSecond) seen.set(n, (seen.get(n) ?? 0) + 1);
  return [...seen]
    .sort((a, b) => b[0] - a[0])
    .map(([n, seconds]) => `${n}×${seconds}`)
    .join(', ');
}

async function main(): Promise<void> {
  if (!Number.isInteger(RATE) || RATE < 1 || RATE > 1000) throw new Error('BENCH_RATE must be a whole number of messages per second, 1-1000');
  const { infra, machine, retry, concurrency, db, source, cleanups, close } = await benchSetup('pacing');
  const { seed } = infra;
  const failures: string[] = [];
  try {
    // The seeded number at the set rate; a second number of the same bot (same token) at the default.
    const pacedSender = await setSeededSenderRate(db, seed, RATE);
    const { rows: others } = await db.query<{ id: string }>(
      `INSERT INTO "channel_senders" ("id", "bot_id", "channel", "number", "phone_number_id", "access_token_encrypted")
       SELECT gen_random_uuid(), "bot_id", "channel", $2, $3, "access_token_encrypted" FROM "channel_senders" WHERE "id" = $1 RETURNING "id"`,
      [pacedSender, OTHER_NUMBER, OTHER_PHONE_NUMBER_ID],
    );
    const fake = await WhatsAppFakeProcess.start(seed.accessToken);
    cleanups.unshift(() => fake.stop());

    const workers: ChildProcess[] = [];
    const healthPorts: number[] = [];
    for (let i = 0; i < WORKERS; i++) {
      const port = await freePort();
      const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=.local/profiles', `--cpu-prof-name=pacing-worker-${i + 1}.cpuprofile`] : [];
      const worker = startNode([...prof, 'dist/apps/channel-worker/src/main.js'], { ...infra.env, WHATSAPP_API_BASE_URL: fake.baseUrl, WORKER_HEALTH_PORT: String(port) });
      cleanups.unshift(() => stopProcess(worker));
      workers.push(worker);
      healthPorts.push(port);
    }
    for (let i = 0; i < WORKERS; i++) await waitHealthy(`http://127.0.0.1:${healthPorts[i]}/health`, workers[i], 60_000);

    const queue = new Queue(QueueNames.carouselDispatch, { connection: { url: infra.redisUrl } });
    cleanups.unshift(() => queue.close());
    process.stderr.write(`pacing: queueing ${fmt(PACED)} messages for the number at ${RATE}/s, then ${fmt(OTHER)} for another number (queue paused)\n`);
    await queue.pause();
    await enqueue(queue, [...Array.from({ length: PACED }, () => queuedTrigger(source(pacedSender), retry)), ...Array.from({ length: OTHER }, () => queuedTrigger(source(others[0].id), retry))]);
    const rewrites = await aofRewrites(infra.redisUrl);
    process.stderr.write(`pacing: draining with ${WORKERS} workers (about ${Math.ceil(PACED / RATE)} s)\n`);
    // Date.now(): the clock the fake counts seconds by (and Redis' TIME, which the pacer reads)
    const t0 = Date.now();
    await queue.resume();
    // Where the jobs are, once a second: a drain that slows down shows whether jobs wait in the delayed
    // set (for their slots, or back late) or in the wait list (the workers behind).
    const samples: Array<{ at: number; wait: number; active: number; delayed: number }> = [];
    const sampler = setInterval(() => {
      void queue.getJobCounts('wait', 'active', 'delayed').then(
        (c) => samples.push({ at: Date.now(), wait: c.wait ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0 }),
        () => undefined,
      );
    }, 1000);
    await fake.reached(PACED + OTHER, workers).finally(() => clearInterval(sampler));

    // Every row must end `sent`.
    const total = PACED + OTHER;
    const statuses = await waitAllSent(db, total);
    // Every arrival counts against the rate, a message sent again (its first answer lost) included:
    // the fake's counts are read once the workers are idle.
    await new Promise((r) => setTimeout(r, 2_000));
    const arrivals = await fake.arrivals();
    const stats = await fake.stats();
    const rewritesDuring = (await aofRewrites(infra.redisUrl)) - rewrites;
    const none: NumberArrivals = { accepted: 0, perSecond: [], first: t0, last: t0 };
    const paced = arrivals[seed.phoneNumberId] ?? none;
    const other = arrivals[OTHER_PHONE_NUMBER_ID] ?? none;
    const { rows: attemptRows } = await db.query<{ n: string }>(`SELECT coalesce(sum("attempts"), 0) AS n FROM "messages"`);
    const counters: Record<string, number> = {};
    for (const port of healthPorts) {
      for (const [k, v] of Object.entries(await workerCounters(`http://127.0.0.1:${port}/metrics`))) counters[k] = (counters[k] ?? 0) + v;
    }

    const highest = Math.max(0, ...paced.perSecond.map(([, n]) => n));
    const over = paced.perSecond.filter(([, n]) => n > RATE);
    const drain = (paced.last - t0) / 1000;
    const ideal = PACED / RATE;
    const otherDone = (other.last - t0) / 1000;
    // The first and last seconds are partial (the drain began and ended inside them).
    const inner = paced.perSecond.slice(1, -1);
    const used = inner.length ? inner.reduce((sum, [, n]) => sum + n, 0) / (RATE * inner.length) : 0;
    const pacedByThen = paced.perSecond.filter(([s]) => s < Math.floor(other.last / 1000)).reduce((sum, [, n]) => sum + n, 0);
    const lines = [
      '',
      `### Per-sender pacing: ${WORKERS} channel workers, one number at ${RATE}/s (${new Date().toISOString().slice(0, 10)})`,
      '',
      `Machine: ${machineLine(machine)}.`,
      `Load: ${fmt(PACED)} queued 3-card carousel messages for one number (throughput ${RATE}/s), then ${fmt(OTHER)} for a second number of the same bot, ` +
        `drained by ${WORKERS} built channel-worker processes (dist/apps/channel-worker/src/main.js, concurrency ${concurrency} each, LOG_LEVEL=${infra.env.LOG_LEVEL}); ` +
        `WhatsApp Cloud API fake (WhatsAppCloudSandbox, not recording) in its own process, counting each number's messages per wall-clock second on arrival; clock from queue.resume(). ` +
        `Load average at the end: ${loadavg()
          .map((l) => l.toFixed(1))
          .join(', ')}.`,
      '',
      '| | |',
      '|---|---:|',
      `| Set rate of the paced number | ${RATE}/s |`,
      `| Highest count in any wall-clock second at the receiving end | **${highest}** |`,
      `| Seconds over the rate | **${over.length}** of ${paced.perSecond.length} |`,
      `| Share of the rate used while draining (the ${inner.length} whole seconds between the first and the last) | **${(used * 100).toFixed(1)} %** |`,
      `| Drain time of its ${fmt(PACED)} messages: last arrival (ideal ${fmt(PACED)} / ${RATE}) | ${drain.toFixed(2)} s (ideal ${ideal.toFixed(2)} s, ${((drain / ideal) * 100).toFixed(1)} %) |`,
      `| Other number's ${fmt(OTHER)} messages (queued after them) all sent | ${otherDone.toFixed(2)} s after resume, while ${fmt(pacedByThen)}-${fmt(pacedByThen + (paced.perSecond.find(([s]) => s === Math.floor(other.last / 1000))?.[1] ?? 0))} of the paced number's had been |`,
      '',
      `Seconds of the paced number by count (count×seconds; the first and last are partial): ${histogram(paced.perSecond)}.`,
      '',
      `The queue once a second (seconds after resume: waiting/active/delayed jobs, the paced number's arrivals in that second): ${samples
        .map((q) => `${Math.round((q.at - t0) / 1000)}: ${q.wait}/${q.active}/${q.delayed} ${paced.perSecond.find(([s]) => s === Math.floor(q.at / 1000))?.[1] ?? 0}`)
        .join(', ')}.`,
      '',
      `Check: message rows by status ${JSON.stringify(statuses)} (expected ${fmt(total)} sent), ${fmt(Number(attemptRows[0].n))} attempts; ` +
        `fake: ${fmt(stats.accepted)} accepted (${fmt(stats.accepted - total)} sent twice), ${stats.rejected} rejected, ${stats.wrongBearer} with a wrong bearer; ` +
        `workers: ${fmt(counters.carousel_paced_total ?? 0)} waits for a slot in the delayed set, ${fmt(counters.carousel_pace_refused_total ?? 0)} claims given back (the number's seconds stayed full at the request), ` +
        `${fmt(counters.carousel_paced_in_process_total ?? 0)} waits for a slot in the worker's memory, ` +
        `${fmt(counters['carousel_send_attempts_total:sent'] ?? 0)} Cloud API calls answered sent, ` +
        `${fmt(counters.whatsapp_pace_script_calls_total ?? 0)} pace script calls (${((counters.whatsapp_pace_script_calls_total ?? 0) / total).toFixed(2)} per message), ` +
        `${fmt(counters.whatsapp_pace_permit_sends_total ?? 0)} sends with the count taken at their reservation, ${fmt(counters.whatsapp_pace_take_waits_total ?? 0)} waits in the job for a second with room at the count.`,
      ...(rewritesDuring > 0 ? ['', `- Redis rewrote its AOF ${rewritesDuring}× during the run.`] : []),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');

    if (over.length > 0) failures.push(`${over.length} seconds over ${RATE}: ${over.map(([s, n]) => `${new Date(s * 1000).toISOString()} ${n}`).join(', ')}`);
    if ((statuses.sent ?? 0) !== total) failures.push(`only ${statuses.sent ?? 0} of ${total} message rows are sent`);
    if (stats.wrongBearer > 0) failures.push(`${stats.wrongBearer} requests with a wrong bearer`);
    if (stats.rejected > 0) failures.push(`${stats.rejected} requests rejected by the fake`);
    for (const w of workers) await stopProcess(w);
  } finally {
    await close();
  }
  reportFailures(failures);
}

runBench(main);
