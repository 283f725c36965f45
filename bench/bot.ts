// `npm run bench:bot`: one journey run two ways on the same machine, in the same run.
//
//  - hosted: the bot is a published definition; the bot runtime (dist/apps/bot-runtime) runs it.
//  - webhook: the same journey written as an outside bot, an HTTP server in this process that verifies
//    each signed call and answers through the reply API (the channel worker makes the calls), as
//    docs/conversations.md's echo bot does.
//
// The journey has seven nodes: a function node parses the session payload (the docs/sdk.md snippet), a
// greeting uses it, a question asks a number, a condition branches on it, one of two messages, an end.
// Each conversation is driven as a person would: start a web session, wait for the question on the
// user's event stream (Redis, as the chat page's stream reads it), answer, wait for the closing message.
// BENCH_CONVERSATIONS (400) per path with BENCH_CONCURRENCY (40) at once, the paths one after the other,
// twice each in alternating order (A B B A), so a drift of the host counts against both.
//
// Reported: steps per second of each path and their ratio (goal: hosted at least 3x), the user-seen turn
// latency (answer sent → closing message on the stream) and the runtime's own step durations, the
// sandbox's warm call, and memory per active conversation (BENCH_ACTIVE, 2,000 left waiting at the question).
// BENCH_CPU_PROF=1 writes the gateway's, worker's and runtime's CPU profiles to .local/profiles/<app>/.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ApiKeyService } from '@platform/accounts';
import { SDK_SNIPPET, measureWarmCalls } from '@platform/bot-sandbox';
import { chatUserId, verifyWebhookSignature, type BotDefinition } from '@platform/contracts';
import { BotRepository } from '@platform/database';
import { freePort } from '@platform/local-infra';
import { sdkUserKeys } from '@platform/queue';
import { CliModule } from '../apps/cli/src/cli.module.js';
import { setCallbackUrl } from '../apps/cli/src/commands/callback-settings.js';
import { cpuSecondsOf, cpuSecondsWithChildren, describeMachine, fmt, machineLine, runBench, startInfra, startNode, stopProcess, waitHealthy, reportFailures, type BenchInfra } from './common.js';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 40);
const ACTIVE = Number(process.env.BENCH_ACTIVE ?? 2000);
/** Nodes run per conversation: function, greeting, question (asks), then question (answered), condition, message, end. */
const STEPS_PER_CONVERSATION = 7;
const WAIT_MS = 60_000;

const definition: BotDefinition = {
  schemaVersion: 1,
  startJourney: 'order',
  variables: [
    { name: 'profile', type: 'object' },
    { name: 'qty', type: 'number' },
  ],
  journeys: [
    {
      slug: 'order',
      start: 'parse',
      nodes: [
        { id: 'parse', kind: 'function', code: SDK_SNIPPET, variable: 'profile' },
        { id: 'hello', kind: 'message', text: 'Hi {{variables.profile.userName}}!' },
        { id: 'ask', kind: 'question', text: 'How many items?', answer: { type: 'number', min: 1, max: 100 }, variable: 'qty' },
        { id: 'size', kind: 'condition', branches: [{ id: 'big', when: 'variables.qty > 5' }] },
        { id: 'big', kind: 'message', text: 'A big order: {{variables.qty}} items.' },
        { id: 'small', kind: 'message', text: 'A small order: {{variables.qty}} items.' },
        { id: 'bye', kind: 'end', text: 'Thanks!' },
      ],
      edges: [
        { from: 'parse', to: 'hello' },
        { from: 'hello', to: 'ask' },
        { from: 'ask', to: 'size' },
        { from: 'size', to: 'big', on: 'big' },
        { from: 'size', to: 'small', on: 'else' },
        { from: 'big', to: 'bye' },
        { from: 'small', to: 'bye' },
      ],
    },
  ],
};

interface Bot {
  botId: string;
  apiKey: string;
}

/** The same journey as an outside bot: one handler per call, replies through the reply API. */
class WebhookBot {
  private server?: Server;
  secret = '';
  calls = 0;
  bad = 0;

  constructor(
    private readonly base: string,
    private readonly bot: Bot,
  ) {}

  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (!verifyWebhookSignature({ secret: this.secret, headers: req.headers, rawBody: raw })) {
          this.bad++;
          res.writeHead(401).end();
          return;
        }
        res.writeHead(200).end(); // taken: answer first, then work
        this.calls++;
        this.handle(JSON.parse(raw)).catch((err) => process.stderr.write(`webhook bot: ${err}\n`));
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  private async handle(call: { type: string; conversationId: string; payload?: string; message?: { content: { text?: string } } }): Promise<void> {
    if (call.type === 'session.started') {
      let profile: { userName?: string };
      try {
        profile = JSON.parse(call.payload ?? '{}');
      } catch {
        profile = {};
      }
      await this.reply(call.conversationId, `Hi ${profile.userName ?? ''}!`);
      await this.reply(call.conversationId, 'How many items?');
    } else if (call.type === 'message.received') {
      const qty = Number(call.message?.content.text?.trim());
      if (!Number.isFinite(qty) || qty < 1 || qty > 100) return this.reply(call.conversationId, 'How many items?');
      await this.reply(call.conversationId, qty > 5 ? `A big order: ${qty} items.` : `A small order: ${qty} items.`);
      await this.reply(call.conversationId, 'Thanks!');
    }
  }

  private async reply(conversationId: string, text: string): Promise<void> {
    const res = await fetch(`${this.base}/v1/bots/${this.bot.botId}/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.bot.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    if (res.status !== 202) throw new Error(`reply answered ${res.status}: ${await res.text()}`);
  }

  close(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

interface PathResult {
  name: string;
  seconds: number;
  stepsPerSecond: number;
  turnMs: number[];
}

const pct = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

/** Drives `count` conversations of `bot` through the journey, `CONCURRENCY` at a time. */
async function drive(name: string, base: string, bot: Bot, infra: BenchInfra, count: number, tag: string): Promise<PathResult> {
  const turnMs: number[] = [];
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    const redis = new Redis(infra.redisUrl, { maxRetriesPerRequest: 1 });
    try {
      for (let i = next++; i < count; i = next++) {
        const token = `bench${tag}${i}`.slice(0, 40);
        const { events } = sdkUserKeys(infra.redisTarget, bot.botId, chatUserId(token));
        const start = await post(`${base}/v1/bots/${bot.botId}/sessions`, { authToken: token, payload: { userName: `User ${i}` }, version: 2 });
        if (start.status !== 201) throw new Error(`${name}: session start answered ${start.status}: ${await start.text()}`);
        const { sessionId } = (await start.json()) as { sessionId: string };
        await untilEvents(redis, events, 2); // greeting + question
        const sent = performance.now();
        const answer = await post(`${base}/v1/bots/${bot.botId}/sessions/${sessionId}/messages`, { text: String((i % 10) + 1) }, { authorization: `Bearer ${token}` });
        if (answer.status !== 202) throw new Error(`${name}: message answered ${answer.status}: ${await answer.text()}`);
        await untilEvents(redis, events, 4); // the order message + thanks
        turnMs.push(performance.now() - sent);
      }
    } finally {
      redis.disconnect();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const seconds = (performance.now() - started) / 1000;
  turnMs.sort((a, b) => a - b);
  return { name, seconds, stepsPerSecond: (count * STEPS_PER_CONVERSATION) / seconds, turnMs };
}

/** Waits until the user's event stream holds `n` messages (the page would have rendered them); typing signals do not count. */
async function untilEvents(redis: Redis, key: string, n: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  let last = '0-0';
  let seen = 0;
  while (seen < n) {
    if (Date.now() > deadline) throw new Error(`${key}: ${seen} of ${n} events after ${WAIT_MS} ms`);
    const got = (await redis.xread('COUNT', 10, 'BLOCK', 1000, 'STREAMS', key, last)) as Array<[string, Array<[string, string[]]>]> | null;
    for (const [, entries] of got ?? []) {
      seen += entries.filter(([, fields]) => (JSON.parse(fields[fields.indexOf('e') + 1]) as { data?: { code?: string } }).data?.code === 'conversation.message').length;
      if (entries.length) last = entries[entries.length - 1][0];
    }
  }
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

async function api(base: string, bot: Bot, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${bot.apiKey}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const infra = await startInfra('bot');
  const children: Array<ReturnType<typeof startNode>> = [];
  let webhookBot: WebhookBot | undefined;
  const failures: string[] = [];
  try {
    const machine = await describeMachine(infra);
    const [port, workerPort, runtimePort] = [await freePort(), await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...infra.env,
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_ALLOW_HTTP: 'true',
      SDK_RATE_LIMIT_PER_IP: '1000000',
      BOT_HTTP_ALLOW_PRIVATE_ADDRESSES: 'true',
      // Throughput, not outage handling, is measured: on a shared 2-core host a statement (or the wait for a
      // pooled connection) can take longer than the defaults under this load, which the platform rightly answers 500.
      DATABASE_QUERY_TIMEOUT_MS: '10000',
      DATABASE_CONNECT_TIMEOUT_MS: '10000',
    };
    const cli = await NestFactory.createApplicationContext(CliModule.forRoot(env), { logger: ['error'] });
    const seedBot = async (name: string): Promise<Bot> => {
      const bot = await cli.get(BotRepository, { strict: false }).create(name);
      const { key } = await cli.get(ApiKeyService, { strict: false }).create(bot.id, 'bench');
      return { botId: bot.id, apiKey: key };
    };
    const hosted = await seedBot('bench hosted bot');
    const outside = await seedBot('bench webhook bot');
    webhookBot = new WebhookBot(base, outside);
    webhookBot.secret = String(await setCallbackUrl(cli, outside.botId, 'webhook', await webhookBot.listen(), false));
    await cli.close();

    // BENCH_CPU_PROF=1: each platform process writes a V8 CPU profile to .local/profiles/<app>/ when it stops.
    const profile = (app: string) => (process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=.local/profiles/${app}`] : []);
    const start = async (app: string, extra: Record<string, string>, healthPort: number) => {
      const child = startNode([...profile(app), `dist/apps/${app}/src/main.js`], { ...env, ...extra });
      children.push(child);
      await waitHealthy(`http://127.0.0.1:${healthPort}/health`, child, 60_000);
      return child;
    };
    const gateway = await start('gateway', { PORT: String(port) }, port);
    const worker = await start('channel-worker', { WORKER_HEALTH_PORT: String(workerPort) }, workerPort);
    const runtime = await start('bot-runtime', { BOT_RUNTIME_HEALTH_PORT: String(runtimePort) }, runtimePort);

    await api(base, hosted, 'POST', `/v1/bots/${hosted.botId}/versions`, { definition, note: 'bench' });

    // Warm both paths (JIT, connection pools, the runtime's QuickJS module) before measuring.
    await drive('hosted', base, hosted, infra, CONCURRENCY, 'wh');
    await drive('webhook', base, outside, infra, CONCURRENCY, 'ww');

    const rounds: PathResult[] = [];
    const cpu: Record<string, number> = { hosted: 0, webhook: 0 };
    // Per process as well, so a profile can be pointed at the process that costs most.
    const cpuByProcess: Record<string, Record<string, number>> = { hosted: {}, webhook: {} };
    const infraCpu: Record<string, number> = { hosted: 0, webhook: 0 };
    const infraSeconds = () => cpuSecondsWithChildren(infra.pids.postgres) + cpuSecondsOf(infra.pids.redis);
    const measured = async (name: 'hosted' | 'webhook', tag: string) => {
      // The outside bot runs in this process, beside the driver: its CPU counts for the webhook path.
      const processes: Array<[string, number]> =
        name === 'hosted'
          ? [
              ['gateway', gateway.pid!],
              ['runtime', runtime.pid!],
              ['worker', worker.pid!],
            ]
          : [
              ['gateway', gateway.pid!],
              ['worker', worker.pid!],
              ['driver + outside bot', process.pid],
            ];
      const before = processes.map(([, pid]) => cpuSecondsOf(pid));
      const infraBefore = infraSeconds();
      rounds.push(await drive(name, base, name === 'hosted' ? hosted : outside, infra, CONVERSATIONS, tag));
      processes.forEach(([label, pid], i) => {
        const used = cpuSecondsOf(pid) - before[i];
        cpu[name] += used;
        cpuByProcess[name][label] = (cpuByProcess[name][label] ?? 0) + used;
      });
      infraCpu[name] += infraSeconds() - infraBefore;
    };
    await measured('hosted', 'a');
    await measured('webhook', 'b');
    await measured('webhook', 'c');
    await measured('hosted', 'd');

    const db = new pg.Client({ connectionString: infra.databaseUrl });
    await db.connect();
    const steps = await db.query<{ kind: string; p50: number; p99: number; n: string }>(
      `SELECT kind, percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY duration_ms) AS p99, count(*) AS n
         FROM bot_steps WHERE bot_id = $1 GROUP BY kind ORDER BY kind`,
      [hosted.botId],
    );
    const allSteps = await db.query<{ p50: number; p99: number; n: string; errors: string }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY duration_ms) AS p99, count(*) AS n,
              count(*) FILTER (WHERE outcome IN ('error', 'limit')) AS errors FROM bot_steps WHERE bot_id = $1`,
      [hosted.botId],
    );
    const inputs = await db.query<{ p50: number; p99: number }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99
         FROM (SELECT extract(epoch FROM processed_at - created_at) * 1000 AS ms FROM bot_inputs WHERE bot_id = $1 AND processed_at IS NOT NULL) t`,
      [hosted.botId],
    );
    const expectedSteps = (CONCURRENCY + 2 * CONVERSATIONS) * STEPS_PER_CONVERSATION;
    if (Number(allSteps.rows[0].n) !== expectedSteps) failures.push(`hosted steps recorded ${allSteps.rows[0].n}, expected ${expectedSteps}`);
    if (Number(allSteps.rows[0].errors) !== 0) failures.push(`${allSteps.rows[0].errors} hosted steps failed`);
    if (webhookBot.bad) failures.push(`${webhookBot.bad} webhook calls had a bad signature`);

    // Memory per active conversation: ACTIVE conversations left waiting at the question.
    const rssBefore = rssKb(runtime.pid!);
    let next = 0;
    const lanes = Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < ACTIVE; i = next++) {
        const res = await post(`${base}/v1/bots/${hosted.botId}/sessions`, { authToken: `benchactive${i}`, payload: { userName: `Waiting ${i}`, plan: 'premium' }, version: 2 });
        if (res.status !== 201) throw new Error(`active session answered ${res.status}`);
      }
    });
    await Promise.all(lanes);
    const waitingDeadline = Date.now() + WAIT_MS;
    let waiting = 0;
    while (Date.now() < waitingDeadline) {
      waiting = Number((await db.query(`SELECT count(*) AS n FROM bot_conversation_states WHERE bot_id = $1 AND status = 'waiting'`, [hosted.botId])).rows[0].n);
      if (waiting >= ACTIVE) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const rowBytes = await db.query<{ state: number; total: number }>(
      `SELECT avg(pg_column_size(s.*)) AS state,
              pg_total_relation_size('bot_conversation_states') / greatest(count(*), 1) AS total
         FROM bot_conversation_states s`,
    );
    const rssAfter = rssKb(runtime.pid!);
    await db.end();
    const sandbox = await measureWarmCalls(2000);

    const by = (name: string) => rounds.filter((r) => r.name === name);
    const rate = (name: string) => by(name).reduce((s, r) => s + r.stepsPerSecond, 0) / by(name).length;
    const turns = (name: string) =>
      by(name)
        .flatMap((r) => r.turnMs)
        .sort((a, b) => a - b);
    const ratio = rate('hosted') / rate('webhook');
    const lines = [
      `## npm run bench:bot`,
      ``,
      machineLine(machine),
      ``,
      `${CONVERSATIONS} conversations per round, ${CONCURRENCY} at once, ${STEPS_PER_CONVERSATION} nodes each; rounds hosted, webhook, webhook, hosted.`,
      ``,
      `| path | steps/s (each round) | mean steps/s | user turn p50 / p99 ms | CPU s per 1,000 steps: platform + Postgres/Redis |`,
      `|---|---|---|---|---|`,
      ...(['hosted', 'webhook'] as const).map((name) => {
        const t = turns(name);
        const stepCount = by(name).length * CONVERSATIONS * STEPS_PER_CONVERSATION;
        return `| ${name} | ${by(name)
          .map((r) => fmt(r.stepsPerSecond))
          .join(', ')} | ${fmt(rate(name))} | ${fmt(pct(t, 0.5), 1)} / ${fmt(pct(t, 0.99), 1)} | ${fmt((cpu[name] / stepCount) * 1000, 2)} + ${fmt((infraCpu[name] / stepCount) * 1000, 2)} |`;
      }),
      ``,
      ...(['hosted', 'webhook'] as const).map((name) => {
        const stepCount = by(name).length * CONVERSATIONS * STEPS_PER_CONVERSATION;
        const parts = Object.entries(cpuByProcess[name]).map(([label, s]) => `${label} ${fmt((s / stepCount) * 1000, 2)}`);
        return `- ${name}, platform CPU ms per step by process: ${parts.join(', ')}`;
      }),
      ``,
      `hosted / webhook steps per second: **${fmt(ratio, 2)}x** (goal ≥ 3x).`,
      ``,
      `Runtime step durations (bot_steps, all hosted rounds, ${allSteps.rows[0].n} steps): p50 ${fmt(allSteps.rows[0].p50, 3)} ms, p99 ${fmt(allSteps.rows[0].p99, 3)} ms (goal p99 < 20 ms).`,
      ...steps.rows.map((r) => `- ${r.kind}: ${r.n} steps, p50 ${fmt(r.p50, 3)} ms, p99 ${fmt(r.p99, 3)} ms`),
      `Input queued → turn committed (bot_inputs): p50 ${fmt(inputs.rows[0].p50, 1)} ms, p99 ${fmt(inputs.rows[0].p99, 1)} ms.`,
      ``,
      `Sandbox warm calls (QuickJS, fresh runtime per call, 2,000 calls):`,
      ...sandbox.map((s) => `- ${s.name}: mean ${s.meanUs} µs, p50 ${s.p50Us} µs, p99 ${s.p99Us} µs`),
      ``,
      `Active conversations: ${fmt(waiting)} waiting at the question. Postgres state row ${fmt(rowBytes.rows[0].state)} bytes on average (` +
        `${fmt(rowBytes.rows[0].total)} bytes per row with the table's indexes and pages); the runtime's RSS ${fmt(rssBefore / 1024, 1)} → ${fmt(rssAfter / 1024, 1)} MB ` +
        `(${fmt(((rssAfter - rssBefore) * 1024) / Math.max(waiting, 1))} bytes per conversation: it keeps none in memory between turns).`,
    ];
    process.stdout.write(`\n${lines.join('\n')}\n`);
    if (waiting < ACTIVE) failures.push(`only ${waiting} of ${ACTIVE} active conversations reached the question`);
    reportFailures(failures);
  } finally {
    await webhookBot?.close();
    for (const child of children.reverse()) await stopProcess(child);
    await infra.stop();
  }
}

/** A process's resident memory in KiB (0 once it exited). */
function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

runBench(main);
