// `npm run bench:campaign`: a campaign of BENCH_RECIPIENTS (100,000) recipients on one number paced at
// BENCH_RATE (1,000) messages a second, at the campaign's share BENCH_SHARE (0.8, the API's default:
// the rest of each second is kept for triggers), drained by BENCH_WORKERS (3) built channel-worker
// processes (their campaign planner included) into the loopback WhatsApp fake (a forked process that
// counts the number's messages per wall-clock second on arrival, as Meta counts them).
//
// The campaign is made the way a user makes it, through one built gateway process: create, the audience
// as a streamed CSV upload (number, time zone, image per row), start. The clock runs from the start
// call to the fake's last arrival; the ideal is recipients / (rate × share). Prints the drain time
// against the ideal (goal: at most 105 %), the busiest second (at most the rate), the share of the
// campaign's rate used in the whole seconds of the drain, and the ledger and message checks. Exits
// non-zero when a second went over the rate, a recipient got a message twice or none, or a message row
// did not end `sent`.
//
// Variables: BENCH_RECIPIENTS (100000; e.g. 2000 for a smoke run), BENCH_RATE (1000, 1-1000),
// BENCH_SHARE (0.8, 0.01-0.9), BENCH_WORKERS (3), BENCH_CPU_PROF=1 (a V8 CPU profile of each worker).
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { Readable } from 'node:stream';
import { freePort } from '@platform/local-infra';
import {
  aofRewrites,
  benchSetup,
  cpuSecondsOf,
  cpuSecondsWithChildren,
  fmt,
  machineBusySeconds,
  machineLine,
  reportFailures,
  runBench,
  startNode,
  stopProcess,
  waitHealthy,
  workerCounters,
} from './common.js';
import { WhatsAppFakeProcess } from './whatsapp-fake-process.js';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SHARE = Number(process.env.BENCH_SHARE ?? 0.8);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 3);
/** The run fails when the campaign's progress has not moved for this long. */
const STALL_MS = 60_000;

const MAPPING = {
  number: 'number',
  timeZone: 'tz',
  cards: [{ mediaLink: 'img' }, { mediaLink: { value: 'https://cdn.example.com/b.jpg' } }, { mediaLink: { value: 'https://cdn.example.com/c.jpg' } }],
};

/** The audience as a CSV web stream made as it is read: number,tz,img, one distinct number per row. */
function audienceCsv(count: number): ReadableStream<Uint8Array> {
  let i = 0;
  const node = new Readable({
    read() {
      if (i === 0) this.push('number,tz,img\n');
      if (i >= count) return void this.push(null);
      let chunk = '';
      for (const end = Math.min(i + 1000, count); i < end; i++) chunk += `+91${7_000_000_000 + i},Asia/Kolkata,https://cdn.example.com/${i}.jpg\n`;
      this.push(chunk);
    },
  });
  return Readable.toWeb(node) as ReadableStream<Uint8Array>;
}

async function main(): Promise<void> {
  if (!Number.isInteger(RATE) || RATE < 1 || RATE > 1000) throw new Error('BENCH_RATE must be a whole number of messages per second, 1-1000');
  if (!(SHARE >= 0.01 && SHARE <= 0.9)) throw new Error('BENCH_SHARE must be 0.01-0.9 (the API refuses more)');
  const { infra, machine, concurrency, db, cleanups, close } = await benchSetup('campaign');
  const { seed } = infra;
  const failures: string[] = [];
  try {
    await db.query(`UPDATE "channel_senders" SET "throughput" = $3 WHERE "bot_id" = $1 AND "phone_number_id" = $2`, [seed.botId, seed.phoneNumberId, RATE]);
    const fake = await WhatsAppFakeProcess.start(seed.accessToken);
    cleanups.unshift(() => fake.stop());

    const gatewayPort = await freePort();
    const gateway = startNode(['dist/apps/gateway/src/main.js'], { ...infra.env, PORT: String(gatewayPort), OPENAPI_UI: 'false' });
    cleanups.unshift(() => stopProcess(gateway));
    const workers: ChildProcess[] = [];
    const healthPorts: number[] = [];
    for (let i = 0; i < WORKERS; i++) {
      const port = await freePort();
      const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=.local/profiles', `--cpu-prof-name=campaign-worker-${i + 1}.cpuprofile`] : [];
      const worker = startNode([...prof, 'dist/apps/channel-worker/src/main.js'], { ...infra.env, WHATSAPP_API_BASE_URL: fake.baseUrl, WORKER_HEALTH_PORT: String(port) });
      cleanups.unshift(() => stopProcess(worker));
      workers.push(worker);
      healthPorts.push(port);
    }
    const url = `http://127.0.0.1:${gatewayPort}`;
    await waitHealthy(`${url}/health`, gateway, 60_000);
    for (let i = 0; i < WORKERS; i++) await waitHealthy(`http://127.0.0.1:${healthPorts[i]}/health`, workers[i], 60_000);

    const api = async <T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> => {
      const init: RequestInit & { duplex?: 'half' } = { method, headers: { authorization: `Bearer ${seed.apiKey}`, 'content-type': contentType } };
      if (body !== undefined) init.body = body instanceof ReadableStream ? body : JSON.stringify(body);
      if (body instanceof ReadableStream) init.duplex = 'half';
      const res = await fetch(`${url}/v1/bots/${seed.botId}/campaigns${path}`, init);
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} campaigns${path} answered ${res.status}: ${text}`);
      return JSON.parse(text) as T;
    };
    const campaign = await api<{ id: string }>('POST', '', { name: 'bench', templateId: seed.templateId, sender: `+${seed.senderNumber}`, mapping: MAPPING, sendShare: SHARE });
    process.stderr.write(`campaign: uploading ${fmt(RECIPIENTS)} recipients (streamed CSV)\n`);
    const uploadStarted = Date.now();
    const audience = await api<{ valid: number; invalid: number }>('PUT', `/${campaign.id}/audience/csv`, audienceCsv(RECIPIENTS), 'text/csv');
    const uploadSeconds = (Date.now() - uploadStarted) / 1000;
    if (audience.valid !== RECIPIENTS) throw new Error(`the audience has ${audience.valid} valid rows of ${RECIPIENTS} (${audience.invalid} invalid)`);

    const ideal = RECIPIENTS / (RATE * SHARE);
    process.stderr.write(`campaign: started; draining (ideal ${ideal.toFixed(1)} s)\n`);
    const rewrites = await aofRewrites(infra.redisUrl);
    const cpu = () => ({
      workers: workers.reduce((s, w) => s + cpuSecondsOf(w.pid!), 0),
      redis: cpuSecondsOf(infra.pids.redis),
      postgres: cpuSecondsWithChildren(infra.pids.postgres),
      machine: machineBusySeconds(),
    });
    const cpu0 = cpu();
    const t0 = Date.now();
    await api('POST', `/${campaign.id}/start`, {});
    const lastArrival = await fake.reached(RECIPIENTS, workers);
    const cpu1 = cpu();
    // Every admitted message final and the campaign completed (its planner's last round comes after the last send).
    let progress: { status: string; recipients: Record<string, number>; funnel: Record<string, number> };
    let moved = Date.now();
    let lastSent = -1;
    for (;;) {
      progress = await api('GET', `/${campaign.id}/progress`);
      if (progress.status === 'completed' && progress.funnel.sent + progress.funnel.failed === progress.funnel.queued) break;
      if (progress.funnel.sent !== lastSent) [lastSent, moved] = [progress.funnel.sent, Date.now()];
      else if (Date.now() - moved > STALL_MS) throw new Error(`campaign stalled: ${JSON.stringify(progress)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    await new Promise((r) => setTimeout(r, 2_000)); // a late duplicate, if any, arrives now
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(', ');
    const arrivals = (await fake.arrivals())[seed.phoneNumberId];
    const stats = await fake.stats();
    const { rows } = await db.query<{ status: string; n: string }>(`SELECT "status"::text, count(*) AS n FROM "messages" GROUP BY 1`);
    const statuses = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    const { rows: ledger } = await db.query<{ n: string; recipients: string }>(`SELECT count(*) AS n, count(DISTINCT "recipient") AS recipients FROM "messages"`);
    const rewritesDuring = (await aofRewrites(infra.redisUrl)) - rewrites;
    const counters: Record<string, number> = {};
    for (const port of healthPorts) {
      for (const [k, v] of Object.entries(await workerCounters(`http://127.0.0.1:${port}/metrics`))) counters[k] = (counters[k] ?? 0) + v;
    }

    const perSecond = arrivals?.perSecond ?? [];
    const highest = Math.max(0, ...perSecond.map(([, n]) => n));
    const over = perSecond.filter(([, n]) => n > RATE);
    const drain = (lastArrival - t0) / 1000;
    const inner = perSecond.slice(1, -1);
    const used = inner.length ? inner.reduce((s, [, n]) => s + n, 0) / (RATE * SHARE * inner.length) : 0;
    const firstAfter = ((arrivals?.first ?? t0) - t0) / 1000;
    const us = (a: number, b: number) => fmt(((b - a) * 1e6) / RECIPIENTS);
    const lines = [
      '',
      `### Campaign drain: ${fmt(RECIPIENTS)} recipients on one number at ${RATE}/s, campaign share ${SHARE} (${new Date().toISOString().slice(0, 10)})`,
      '',
      `Machine: ${machineLine(machine)}.`,
      `Load: one campaign (3-card carousel, audience uploaded as a streamed CSV through one built gateway process in ${uploadSeconds.toFixed(1)} s), started through the API and drained by ` +
        `${WORKERS} built channel-worker processes (concurrency ${concurrency} each, their campaign planners included, LOG_LEVEL=${infra.env.LOG_LEVEL}) into the WhatsApp Cloud API fake ` +
        `in its own process, which counts the number's messages per wall-clock second on arrival; clock from the start call. Load average at the end: ${load}.`,
      '',
      '| | |',
      '|---|---:|',
      `| Number's rate; campaign share (sendShare) | ${RATE}/s; ${SHARE} (${fmt(RATE * SHARE)}/s) |`,
      `| Drain time: start call to last arrival (ideal ${fmt(RECIPIENTS)} / ${fmt(RATE * SHARE)}) | ${drain.toFixed(2)} s (ideal ${ideal.toFixed(2)} s) |`,
      `| **Drain time / ideal** (goal ≤ 105 %) | **${((drain / ideal) * 100).toFixed(1)} %** |`,
      `| Highest count in any wall-clock second (at most ${RATE}) | **${fmt(highest)}** (${over.length} seconds over the rate) |`,
      `| Share of the campaign's rate used in the ${inner.length} whole seconds of the drain | ${(used * 100).toFixed(1)} % |`,
      `| First message after the start call | ${firstAfter.toFixed(2)} s |`,
      `| CPU per recipient: workers, Redis, Postgres, whole machine (µs) | ${us(cpu0.workers, cpu1.workers)}, ${us(cpu0.redis, cpu1.redis)}, ${us(cpu0.postgres, cpu1.postgres)}, ${us(cpu0.machine, cpu1.machine)} |`,
      '',
      `Check: campaign ${progress.status}, recipients by ledger state ${JSON.stringify(progress.recipients)}, funnel ${JSON.stringify(progress.funnel)}; ` +
        `message rows ${JSON.stringify(statuses)} for ${fmt(Number(ledger[0].recipients))} distinct recipients; fake: ${fmt(stats.accepted)} accepted (${fmt(stats.accepted - RECIPIENTS)} more than the recipients), ` +
        `${stats.rejected} rejected, ${stats.wrongBearer} with a wrong bearer; workers: ${fmt(counters.carousel_paced_in_process_total ?? 0)} waits for a send slot in memory, ` +
        `${fmt(counters.carousel_paced_total ?? 0)} in the delayed set, ${fmt(counters.carousel_pace_refused_total ?? 0)} claims given back (the second full at the request).`,
      ...(rewritesDuring > 0 ? ['', `- Redis rewrote its AOF ${rewritesDuring}× during the run.`] : []),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');

    if (over.length > 0) failures.push(`${over.length} seconds over ${RATE}`);
    if (stats.accepted !== RECIPIENTS) failures.push(`the fake accepted ${stats.accepted} messages for ${RECIPIENTS} recipients`);
    if ((statuses.sent ?? 0) !== RECIPIENTS || Number(ledger[0].recipients) !== RECIPIENTS)
      failures.push(`message rows ${JSON.stringify(statuses)} for ${ledger[0].recipients} recipients, expected ${RECIPIENTS} sent`);
    if (stats.rejected > 0 || stats.wrongBearer > 0) failures.push(`the fake rejected ${stats.rejected}, ${stats.wrongBearer} with a wrong bearer`);
    for (const w of workers) await stopProcess(w);
  } finally {
    await close();
  }
  reportFailures(failures);
}

runBench(main);
