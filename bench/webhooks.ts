// `npm run bench:webhooks`: Meta's WhatsApp status webhooks (sent, delivered, read: three per message, one
// status per POST, the real payload shape, signed with X-Hub-Signature-256 under the app secret) taken in
// by one built gateway process (POST /webhooks/whatsapp), beside a bare Fastify + pg server that only
// checks the signature and writes each status into the same `messages` table with one UPDATE
// (bench/baseline/fastify-pg-webhook-server.ts). One run, same Postgres (fsync on) and Redis (AOF,
// appendfsync always), loopback only.
//
// 1. The messages the statuses refer to are made by the platform itself: BENCH_MESSAGES queued carousel
//    triggers drained by one channel worker into the loopback WhatsApp fake (as `bench:dispatch` does,
//    after BENCH_WARMUP_MESSAGES), which gives their rows and wamids and the dispatch rate on this host in
//    this run (the webhooks goal is ≥ 3× it: Meta posts three statuses per message). The rows are then
//    copied, each under a wamid of its own, for the baseline.
// 2. Each server gets a warm-up (BENCH_WEBHOOK_WARMUP messages' statuses), then both are loaded in turns
//    (baseline, gateway, baseline, …) for BENCH_ROUNDS rounds, each round a fresh slice of messages:
//    per chunk of 1,000 messages all `sent`, then all `delivered`, then all `read` (autocannon,
//    BENCH_CONNECTIONS connections, one webhook per request, bodies signed before the clock starts).
// 3. Nothing lost: afterwards every message of each server must be `read` with its delivered and read
//    times, and no status may be left held. Exits non-zero otherwise, or on any non-2xx.
//
// Variables: BENCH_MESSAGES (30000), BENCH_WARMUP_MESSAGES (1000, dispatch warm-up), BENCH_WEBHOOK_WARMUP (1000 messages),
//            BENCH_ROUNDS (4), BENCH_CONNECTIONS (50), BENCH_SENDERS (8), BENCH_DISPATCH_RATE (skip the dispatch
//            measurement's verdict and compare with this msg/s instead; the messages are still made by the worker),
//            BENCH_CPU_PROF=1 (the gateway runs with --cpu-prof, profiles in .local/profiles/webhooks-gateway/),
//            BENCH_GATEWAY_BEFORE=<path of another build's dist/apps/gateway/src/main.js> (a second gateway, e.g. the
//            code before a change, loaded in the same turns on rows of its own: before/after CPU per webhook in one run;
//            that build needs package.json and node_modules beside its dist/ folder).
import 'reflect-metadata';
import { createHmac, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { Queue } from 'bullmq';
import { QueueNames } from '@platform/contracts';
import { freePort } from '@platform/local-infra';
import {
  BenchInfra,
  aofRewrites,
  benchSetup,
  cpuSecondsOf,
  cpuSecondsWithChildren,
  fmt,
  machineLine,
  reportFailures,
  runBench,
  sendersAtTopTier,
  startNode,
  stopProcess,
  waitAllSent,
  waitHealthy,
} from './common.js';
import { enqueue, queuedTrigger } from './queued-trigger.js';
import { WhatsAppFakeProcess } from './whatsapp-fake-process.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 30_000);
const WARMUP = Number(process.env.BENCH_WARMUP_MESSAGES ?? 1_000);
const WEBHOOK_WARMUP = Number(process.env.BENCH_WEBHOOK_WARMUP ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 8);
const GIVEN_DISPATCH_RATE = process.env.BENCH_DISPATCH_RATE ? Number(process.env.BENCH_DISPATCH_RATE) : undefined;
const GATEWAY_BEFORE = process.env.BENCH_GATEWAY_BEFORE;
const CHUNK = 1_000;
/** How long the servers may take to start: two gateways starting at once on a loaded host took over 30 s. */
const STARTUP_MS = 120_000;
const PATH = '/webhooks/whatsapp';
/** The statuses' Unix times: sent at T0, delivered 2 s later, read 30 s later (checked in the rows afterwards). */
const T0 = Math.floor(Date.now() / 1000) - 3600;
const TIMES = { sent: T0, delivered: T0 + 2, read: T0 + 30 } as const;
type Status = keyof typeof TIMES;

const nowMs = () => performance.timeOrigin + performance.now();

interface Target {
  name: string;
  url: string;
  pid: number;
  /** The wamids whose statuses this server gets, in order. */
  wamids: string[];
}

/** One status webhook as Meta posts it (conversation and pricing on sent and delivered, as Meta sends them). */
function statusBody(wamid: string, status: Status, phoneNumberId: string, recipient: string): string {
  const billing =
    status === 'read'
      ? {}
      : {
          conversation: { id: 'c0a1b2c3d4e5f60718293a4b5c6d7e8f', ...(status === 'sent' ? { expiration_timestamp: String(T0 + 86_400) } : {}), origin: { type: 'marketing' } },
          pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
        };
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              statuses: [{ id: wamid, status, timestamp: String(TIMES[status]), recipient_id: recipient, ...billing }],
            },
            field: 'messages',
          },
        ],
      },
    ],
  });
}

/** The signed requests of these messages' statuses: per chunk of CHUNK messages, all sent, then all delivered, then all read. */
function signedRequests(wamids: string[], secret: string, phoneNumberId: string, recipient: string): Array<{ body: string; signature: string }> {
  const out: Array<{ body: string; signature: string }> = [];
  for (let c = 0; c < wamids.length; c += CHUNK) {
    const chunk = wamids.slice(c, c + CHUNK);
    for (const status of ['sent', 'delivered', 'read'] as const)
      for (const wamid of chunk) {
        const body = statusBody(wamid, status, phoneNumberId, recipient);
        out.push({ body, signature: 'sha256=' + createHmac('sha256', secret).update(body).digest('hex') });
      }
  }
  return out;
}

interface Segment {
  result: autocannon.Result;
  /** From the first request sent to the last answer received. */
  seconds: number;
  /** From the first request sent to the answer of 99 % of them (a tail that waits shows as a gap between the two). */
  secondsTo99: number;
  sent: number;
  cpu: { server: number; postgres: number; redis: number };
  rewrites: number;
  /**
   * Transaction ids Postgres gave out meanwhile: one per transaction that wrote a row (the server's
   * statements that changed something). Read from the next xid, which moves at once; pg_stat_database's
   * commit counts reach it up to 10 s late, into the next server's turn.
   */
  writes: number;
}

/** The next transaction id (taking none). */
async function nextXid(infra: BenchInfra): Promise<number> {
  return withClient(infra, async (c) => Number((await c.query<{ n: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS n')).rows[0].n));
}

async function withClient<T>(infra: BenchInfra, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: infra.databaseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Posts exactly these requests at `target` over CONNECTIONS connections; the CPU each process used meanwhile. */
async function post(infra: BenchInfra, target: Target, requests: Array<{ body: string; signature: string }>): Promise<Segment> {
  let next = 0;
  let first = 0;
  let last = 0;
  let answered = 0;
  let at99 = 0;
  const setupRequest = (req: autocannon.Request) => {
    first ||= nowMs();
    const r = requests[next++ % requests.length];
    return { ...req, body: r.body, headers: { ...req.headers, 'x-hub-signature-256': r.signature } };
  };
  const cpu = () => ({ server: cpuSecondsOf(target.pid), postgres: cpuSecondsWithChildren(infra.pids.postgres), redis: cpuSecondsOf(infra.pids.redis) });
  const rewrites = await aofRewrites(infra.redisUrl);
  const xid = await nextXid(infra);
  const before = cpu();
  // Timed from the first request to the last answer: autocannon's own duration ends on its next 1 s tick.
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        connections: Math.min(CONNECTIONS, requests.length),
        amount: requests.length,
        requests: [{ setupRequest }],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', () => {
      last = nowMs();
      if (++answered === Math.ceil(requests.length * 0.99)) at99 = last;
    });
  });
  const after = cpu();
  return {
    result,
    seconds: (last - first) / 1000,
    secondsTo99: (at99 - first) / 1000,
    sent: next,
    cpu: { server: after.server - before.server, postgres: Math.max(0, after.postgres - before.postgres), redis: after.redis - before.redis },
    rewrites: (await aofRewrites(infra.redisUrl)) - rewrites,
    writes: (await nextXid(infra)) - xid,
  };
}

interface Run {
  target: Target;
  perSecond: number;
  total: number;
  ok: number;
  bad: number;
  p50: number;
  p99: number;
  max: number;
  sentMismatch: number;
  /** µs per webhook */
  cpu: { server: number; postgres: number; redis: number };
  rewrites: number;
  /** Postgres transactions that wrote, per 100 webhooks */
  writesPer100: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const badOf = (r: autocannon.Result) => r.non2xx + r.errors + r.timeouts;

function summarise(target: Target, segments: Segment[], warm: Segment | undefined): Run {
  const results = segments.map((s) => s.result);
  const ok = sum(results.map((r) => r['2xx']));
  const per = (k: keyof Segment['cpu']) => (sum(segments.map((s) => s.cpu[k])) * 1e6) / Math.max(1, ok);
  return {
    target,
    perSecond: sum(results.map((r) => r.requests.total)) / sum(segments.map((s) => s.seconds)),
    total: sum(results.map((r) => r.requests.total)),
    ok,
    bad: sum(results.map(badOf)) + (warm ? badOf(warm.result) : 0),
    p50: median(results.map((r) => r.latency.p50)),
    p99: median(results.map((r) => r.latency.p99)),
    max: Math.max(...results.map((r) => r.latency.max)),
    sentMismatch: sum(segments.map((s) => Math.abs(s.sent - s.result.requests.total))),
    cpu: { server: per('server'), postgres: per('postgres'), redis: per('redis') },
    rewrites: sum(segments.map((s) => s.rewrites)),
    writesPer100: (sum(segments.map((s) => s.writes)) * 100) / Math.max(1, ok),
  };
}

async function main(): Promise<void> {
  const { infra, machine, retry, db, source, cleanups, close } = await benchSetup('webhooks');
  const { seed } = infra;
  const failures: string[] = [];
  try {
    // ── 1. Messages, made by one channel worker (the dispatch rate of this run) ──────────────────────
    // As in bench:dispatch: spread over SENDERS numbers at 1,000/s each, so the pace never binds.
    const senderIds = await sendersAtTopTier(db, seed, SENDERS);
    let nextSender = 0;
    const make = () => queuedTrigger(source(senderIds[nextSender++ % senderIds.length]), retry);
    const fake = await WhatsAppFakeProcess.start(seed.accessToken);
    cleanups.unshift(() => fake.stop());
    const healthPort = await freePort();
    const worker = startNode(['dist/apps/channel-worker/src/main.js'], { ...infra.env, WHATSAPP_API_BASE_URL: fake.baseUrl, WORKER_HEALTH_PORT: String(healthPort) });
    cleanups.unshift(() => stopProcess(worker));
    await waitHealthy(`http://127.0.0.1:${healthPort}/health`, worker);
    const queue = new Queue(QueueNames.carouselDispatch, { connection: { url: infra.redisUrl } });
    cleanups.unshift(() => queue.close());
    if (WARMUP > 0) {
      process.stderr.write(`dispatch: warm-up, ${fmt(WARMUP)} messages\n`);
      await enqueue(queue, Array.from({ length: WARMUP }, make));
      await fake.reached(WARMUP, [worker]);
    }
    await queue.pause();
    await enqueue(queue, Array.from({ length: MESSAGES }, make));
    process.stderr.write(`dispatch: draining ${fmt(MESSAGES)} messages through one channel worker\n`);
    const t0 = nowMs();
    await queue.resume();
    const dispatchSeconds = ((await fake.reached(WARMUP + MESSAGES, [worker])) - t0) / 1000;
    const measuredDispatch = MESSAGES / dispatchSeconds;
    const statuses = await waitAllSent(db, WARMUP + MESSAGES);
    if ((statuses.sent ?? 0) !== WARMUP + MESSAGES) throw new Error(`dispatch left ${JSON.stringify(statuses)}, not ${WARMUP + MESSAGES} sent`);
    await stopProcess(worker);
    await fake.stop();
    const dispatchRate = GIVEN_DISPATCH_RATE ?? measuredDispatch;

    // The baseline's rows: the same messages under wamids of their own (suffix .b).
    await db.query(
      `INSERT INTO "messages" ("id", "bot_id", "template_id", "sender_id", "channel", "recipient", "status", "attempts", "provider_message_id", "created_at", "updated_at", "sent_at", "postback_url", "custom_payload")
       SELECT gen_random_uuid(), "bot_id", "template_id", "sender_id", "channel", "recipient", "status", "attempts", "provider_message_id" || '.b', "created_at", "updated_at", "sent_at", "postback_url", "custom_payload"
       FROM "messages"`,
    );
    // A second gateway's rows (suffix .c), when one is compared.
    if (GATEWAY_BEFORE)
      await db.query(
        `INSERT INTO "messages" ("id", "bot_id", "template_id", "sender_id", "channel", "recipient", "status", "attempts", "provider_message_id", "created_at", "updated_at", "sent_at", "postback_url", "custom_payload")
         SELECT gen_random_uuid(), "bot_id", "template_id", "sender_id", "channel", "recipient", "status", "attempts", "provider_message_id" || '.c', "created_at", "updated_at", "sent_at", "postback_url", "custom_payload"
         FROM "messages" WHERE "provider_message_id" NOT LIKE '%.b'`,
      );
    await db.query('ANALYZE "messages"');
    const { rows: wamidRows } = await db.query<{ w: string }>(
      `SELECT "provider_message_id" AS w FROM "messages" WHERE "provider_message_id" NOT LIKE '%.b' AND "provider_message_id" NOT LIKE '%.c' ORDER BY "created_at", "id"`,
    );
    const gatewayWamids = wamidRows.map((r) => r.w);
    wamidRows.length = 0;

    // ── 2. The two servers, loaded in turns ──────────────────────────────────────────────────────────
    const appSecret = randomBytes(24).toString('hex');
    const gatewayPort = await freePort();
    const baselinePort = await freePort();
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir=.local/profiles/webhooks-gateway'] : [];
    const startGateway = (main: string, port: number, prof: string[]) => {
      const child = startNode([...prof, main], { ...infra.env, PORT: String(port), WHATSAPP_APP_SECRET: appSecret, WHATSAPP_WEBHOOK_VERIFY_TOKEN: randomBytes(12).toString('hex') });
      cleanups.unshift(() => stopProcess(child));
      return child;
    };
    const gateway = startGateway('dist/apps/gateway/src/main.js', gatewayPort, profile);
    const beforePort = await freePort();
    const before = GATEWAY_BEFORE ? startGateway(GATEWAY_BEFORE, beforePort, profile.length ? ['--cpu-prof', '--cpu-prof-dir=.local/profiles/webhooks-gateway-before'] : []) : undefined;
    const baseline = startNode(['dist/bench/baseline/fastify-pg-webhook-server.js'], { DATABASE_URL: infra.databaseUrl, APP_SECRET: appSecret, PORT: String(baselinePort) });
    cleanups.unshift(() => stopProcess(baseline));
    await waitHealthy(`http://127.0.0.1:${gatewayPort}/health`, gateway, STARTUP_MS);
    await waitHealthy(`http://127.0.0.1:${baselinePort}/health`, baseline, STARTUP_MS);
    if (before) await waitHealthy(`http://127.0.0.1:${beforePort}/health`, before, STARTUP_MS);
    const targets: Target[] = [
      { name: 'baseline', url: `http://127.0.0.1:${baselinePort}${PATH}`, pid: baseline.pid!, wamids: gatewayWamids.map((w) => `${w}.b`) },
      ...(before ? [{ name: 'gateway-before', url: `http://127.0.0.1:${beforePort}${PATH}`, pid: before.pid!, wamids: gatewayWamids.map((w) => `${w}.c`) }] : []),
      { name: 'gateway', url: `http://127.0.0.1:${gatewayPort}${PATH}`, pid: gateway.pid!, wamids: gatewayWamids },
    ];
    const recipient = source(senderIds[0]).recipient;
    const requestsOf = (t: Target, from: number, to: number) => signedRequests(t.wamids.slice(from, to), appSecret, seed.phoneNumberId, recipient);

    const total = gatewayWamids.length;
    const warmCount = Math.min(WEBHOOK_WARMUP, Math.floor(total / 5));
    const warm: Array<Segment | undefined> = [];
    for (const t of targets) {
      process.stderr.write(`${t.name}: warm-up, ${fmt(warmCount * 3)} webhooks\n`);
      warm.push(warmCount > 0 ? await post(infra, t, requestsOf(t, 0, warmCount)) : undefined);
    }
    const perRound = Math.floor((total - warmCount) / ROUNDS);
    const segments: Segment[][] = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const from = warmCount + round * perRound;
      const to = round === ROUNDS - 1 ? total : from + perRound;
      for (const [i, t] of targets.entries()) {
        const requests = requestsOf(t, from, to);
        process.stderr.write(`round ${round + 1}/${ROUNDS}: ${t.name}, ${fmt(requests.length)} webhooks, ${CONNECTIONS} connections`);
        const s = await post(infra, t, requests);
        segments[i].push(s);
        process.stderr.write(
          `: ${fmt(s.result.requests.total / s.seconds)}/s (99 % answered after ${s.secondsTo99.toFixed(2)} s, all after ${s.seconds.toFixed(2)} s), p99 ${s.result.latency.p99} ms, ${fmt((s.cpu.server * 1e6) / Math.max(1, s.result['2xx']))} µs server CPU each\n`,
        );
      }
    }
    const runs = targets.map((t, i) => summarise(t, segments[i], warm[i]));
    const [base, gw] = [runs[0], runs[runs.length - 1]];
    const gwBefore = before ? runs[1] : undefined;

    // ── 3. Nothing lost ──────────────────────────────────────────────────────────────────────────────
    const { rows: check } = await db.query<{ set: string; n: string; read: string; times: string; exact: string }>(
      `SELECT CASE WHEN "provider_message_id" LIKE '%.b' THEN 'baseline' WHEN "provider_message_id" LIKE '%.c' THEN 'gateway-before' ELSE 'gateway' END AS set, count(*) AS n,
         count(*) FILTER (WHERE "status" = 'read') AS read,
         count(*) FILTER (WHERE "status" = 'read' AND "delivered_at" IS NOT NULL AND "read_at" IS NOT NULL) AS times,
         count(*) FILTER (WHERE "delivered_at" = to_timestamp($1) AND "read_at" = to_timestamp($2)) AS exact
       FROM "messages" GROUP BY 1`,
      [TIMES.delivered, TIMES.read],
    );
    const { rows: heldRows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM "held_provider_statuses"`);
    const bySet = Object.fromEntries(check.map((r) => [r.set, { n: Number(r.n), read: Number(r.read), times: Number(r.times), exact: Number(r.exact) }]));
    const held = Number(heldRows[0].n);

    const ratio = gw.perSecond / base.perSecond;
    const versusDispatch = gw.perSecond / dispatchRate;
    const row = (label: string, r: Run) => `| ${label} | ${fmt(r.perSecond)} | ${r.p50} | ${r.p99} | ${r.max} | ${r.bad} | ${fmt(r.total)} |`;
    const cpuRow = (label: string, r: Run) => `| ${label} | ${fmt(r.cpu.server)} | ${fmt(r.cpu.postgres)} | ${fmt(r.cpu.redis)} | ${r.writesPer100.toFixed(1)} |`;
    const lostRow = (label: string, s = { n: 0, read: 0, times: 0, exact: 0 }) => `| ${label} | ${fmt(s.n)} | ${fmt(s.read)} | ${fmt(s.times)} | ${fmt(s.exact)} |`;
    const notes: string[] = [];
    for (const r of runs) if (r.rewrites > 0) notes.push(`- Redis rewrote its AOF ${r.rewrites}× during the ${r.target.name} run.`);
    for (const r of runs) if (r.sentMismatch > 0) notes.push(`- ${r.target.name}: autocannon made ${r.sentMismatch} more or fewer requests than it counted.`);
    const [load1, load5] = (await import('node:os')).loadavg();
    const lines = [
      '',
      `### WhatsApp status webhooks: gateway vs. Fastify + pg UPDATE (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `Machine: ${machineLine(machine)}; load average at the end ${load1.toFixed(2)} (1 min), ${load5.toFixed(2)} (5 min).`,
      `Load: ${fmt(total)} messages made by one channel worker (${fmt(MESSAGES)} measured after ${fmt(WARMUP)} warm-up), three signed status webhooks each (sent, delivered, read; one status per POST, ` +
        `Meta's payload shape), per chunk of ${fmt(CHUNK)} messages all sent, then delivered, then read; autocannon, ${CONNECTIONS} connections; ` +
        `${fmt(warmCount * 3)} warm-up webhooks per server, then ${ROUNDS} rounds in turns (baseline, gateway, …) of ${fmt(perRound * 3)} webhooks each; ` +
        `gateway = one built process (dist/apps/gateway/src/main.js)${profile.length ? ' with --cpu-prof' : ''}, LOG_LEVEL=${infra.env.LOG_LEVEL}.`,
      '',
      '| Server | webhooks/s | p50 ms | p99 ms | max ms | non-2xx/errors | webhooks |',
      '|---|---:|---:|---:|---:|---:|---:|',
      row('Fastify + pg: signature check + one `UPDATE` (baseline)', base),
      ...(gwBefore ? [row(`Gateway before (${GATEWAY_BEFORE})`, gwBefore)] : []),
      row('Gateway `POST /webhooks/whatsapp`', gw),
      '',
      `**Ratio gateway / baseline: ${ratio.toFixed(2)}** (goal ≥ 0.9).`,
      '',
      ...(gwBefore
        ? [
            `Gateway against the build before, same run: ${(gw.perSecond / gwBefore.perSecond).toFixed(2)}× the webhooks/s, ${(gw.cpu.server / gwBefore.cpu.server).toFixed(2)}× the gateway's CPU per webhook, ` +
              `${((gw.cpu.server + gw.cpu.postgres + gw.cpu.redis) / (gwBefore.cpu.server + gwBefore.cpu.postgres + gwBefore.cpu.redis)).toFixed(2)}× gateway + Postgres + Redis.`,
            '',
          ]
        : []),
      `**Gateway webhooks/s against dispatch: ${versusDispatch.toFixed(2)}×** (goal ≥ 3×): one channel worker sent ${fmt(measuredDispatch)} msg/s in this run ` +
        `(${fmt(MESSAGES)} messages in ${dispatchSeconds.toFixed(2)} s)${GIVEN_DISPATCH_RATE ? `; compared with BENCH_DISPATCH_RATE=${fmt(GIVEN_DISPATCH_RATE)}` : ''}.`,
      '',
      'CPU time per webhook answered during the measured rounds (µs; from /proc, all threads):',
      '',
      '| Server | server process | Postgres | Redis | Postgres transactions that wrote, per 100 webhooks |',
      '|---|---:|---:|---:|---:|',
      cpuRow('baseline', base),
      ...(gwBefore ? [cpuRow('gateway before', gwBefore)] : []),
      cpuRow('gateway', gw),
      '',
      `Nothing lost (rows afterwards; every message must be \`read\` with its delivered and read times; "exact": both times those the webhooks gave), ${held} status(es) left held:`,
      '',
      '| Server | messages | read | read with both times | exact times |',
      '|---|---:|---:|---:|---:|',
      lostRow('baseline', bySet.baseline),
      ...(gwBefore ? [lostRow('gateway before', bySet['gateway-before'])] : []),
      lostRow('gateway', bySet.gateway),
      ...(notes.length ? ['', ...notes] : []),
      '',
    ];
    process.stdout.write(lines.join('\n') + '\n');

    for (const r of runs) {
      if (r.bad > 0) failures.push(`${r.target.name} answered ${r.bad} webhooks with non-2xx, errors or timeouts`);
      const s = bySet[r.target.name];
      if (!s || s.times !== total) failures.push(`${r.target.name}: ${s?.times ?? 0} of ${total} messages read with both times`);
    }
    if (held > 0) failures.push(`${held} statuses left held`);
  } finally {
    await close();
  }
  reportFailures(failures);
}

runBench(main);
