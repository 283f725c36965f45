// `npm run bench:replicas`: the platform as several processes at once on one machine — 2 gateways,
// 3 channel workers and 2 push services (all built, dist/apps/*/src/main.js) on one Postgres and one
// Redis (AOF, appendfsync always), with the outside services in a forked child (bench/replicas-providers.ts).
// BENCH_REDIS=cluster runs them on a 6-node Redis Cluster (3 masters, 3 replicas) on loopback instead;
// Redis CPU is then the six nodes' together.
//
//  1. Triggers: BENCH_TRIGGERS (20,000), each to its own recipient, half through gateway 1 alone, then
//     half through both gateways at once (same connection count in all), with no worker running, so the
//     figures are the gateways' alone.
//  2. Drain: one worker starts; after BENCH_ONE_WORKER_SECONDS (10) two more start. One sender in 20 is
//     paced at BENCH_PACED_RATE (50/s), the rest at 1,000/s (Meta's highest tier).
//  3. Push: one notification to BENCH_DEVICES (50,000) registered devices through the 2 push services.
// Then every trigger answered 200 must have reached the Cloud API exactly once, every device FCM once,
// and the paced sender's busiest second must not exceed its rate; the run exits non-zero otherwise.
// CPU per message comes from /proc (all threads of each process), since 2 cores bound the absolute figures.
import 'reflect-metadata';
import { ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { QueueNames } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { ChannelSenderRepository } from '@platform/database';
import { freePort } from '@platform/local-infra';
import { carouselBody, seedBotAdmin, testQueue } from '@platform/testing';
import { createGateway } from '../apps/gateway/src/create-gateway.js';
import { BenchInfra, cpuSecondsOf, cpuSecondsWithChildren, describeMachine, fmt, machineLine, startInfra, startNode, stopProcess, waitHealthy, runBench, benchServiceAccount } from './common.js';
import type { ProviderStats, ProvidersRequest } from './replicas-providers.js';

const TRIGGERS = Number(process.env.BENCH_TRIGGERS ?? 20_000);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 50_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONE_WORKER_SECONDS = Number(process.env.BENCH_ONE_WORKER_SECONDS ?? 10);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 50);
const FAST_RATE = 1_000;
const PACED_EVERY = 20;
/** A phase fails when nothing has moved for this long. */
const STALL_MS = 60_000;
const ON_CLUSTER = process.env.BENCH_REDIS === 'cluster';

type Named = { name: string; child: ChildProcess };

class Providers {
  private constructor(
    private readonly child: ChildProcess,
    readonly urls: { whatsappUrl: string; fcmUrl: string; tokenUri: string },
  ) {}

  static async start(): Promise<Providers> {
    const child = fork(fileURLToPath(new URL('./replicas-providers.js', import.meta.url)), [], { stdio: 'inherit' });
    const ready = await new Promise<Providers['urls']>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Providers['urls']));
      child.once('exit', (code) => reject(new Error(`providers exited with code ${code}`)));
    });
    return new Providers(child, ready);
  }

  get pid(): number {
    return this.child.pid!;
  }

  send(msg: ProvidersRequest): void {
    this.child.send(msg);
  }

  stats(withRecipients = false): Promise<ProviderStats> {
    return new Promise((resolve) => {
      const on = (m: { type: string }) => {
        if (m.type !== 'stats') return;
        this.child.off('message', on);
        resolve(m as unknown as ProviderStats);
      };
      this.child.on('message', on);
      this.send({ type: 'stats', withRecipients });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.send({ type: 'stop' });
    await exited;
  }
}

/** CPU seconds so far of the named processes (all threads), of Redis and of Postgres with its backends. */
function cpu(infra: BenchInfra, procs: Named[]) {
  return {
    apps: procs.reduce((sum, p) => sum + cpuSecondsOf(p.child.pid!), 0),
    redis: infra.pids.redisNodes.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
    postgres: cpuSecondsWithChildren(infra.pids.postgres),
  };
}

type Cpu = ReturnType<typeof cpu>;
const perMessageUs = (a: Cpu, b: Cpu, n: number) => ({
  apps: ((b.apps - a.apps) * 1e6) / Math.max(1, n),
  redis: ((b.redis - a.redis) * 1e6) / Math.max(1, n),
  postgres: ((b.postgres - a.postgres) * 1e6) / Math.max(1, n),
});
const cpuCells = (c: ReturnType<typeof perMessageUs>) => `${fmt(c.apps)} | ${fmt(c.redis)} | ${fmt(c.postgres)} | ${fmt(c.apps + c.redis + c.postgres)}`;

async function main(): Promise<void> {
  const infra = await startInfra('replicas', { cluster: ON_CLUSTER });
  const procs: Named[] = [];
  let providers: Providers | undefined;
  try {
    providers = await Providers.start();
    const machine = await describeMachine(infra);
    const env: Record<string, string> = {
      ...infra.env,
      WHATSAPP_API_BASE_URL: providers.urls.whatsappUrl,
      FCM_API_BASE_URL: providers.urls.fcmUrl,
      PUSH_ALLOW_INSECURE_TOKEN_URI: 'true',
      OPENAPI_UI: 'false',
      // checked on every trigger, never reached: the run measures throughput, not the quota
      TRIGGER_QUOTA_PER_MINUTE: '10000000',
    };
    const { seed } = infra;
    const pacedNumber = '15550002222';
    const fastPhoneNumberId = seed.phoneNumberId;
    const pacedPhoneNumberId = '1065000222333';

    // Set-up through an in-process gateway, closed before anything is measured: the second sender, the
    // senders' throughput, an administrator's token and the bot's Firebase service account.
    const setup = await createGateway({ ...env, PORT: '0' });
    const senders = setup.get(ChannelSenderRepository, { strict: false });
    const fast = await senders.findByNumber(seed.botId, 'whatsapp', seed.senderNumber);
    if (!fast) throw new Error('the seeded sender is missing');
    await senders.setThroughput(seed.botId, fast.id, FAST_RATE);
    await senders.create({
      botId: seed.botId,
      channel: 'whatsapp',
      number: pacedNumber,
      phoneNumberId: pacedPhoneNumberId,
      accessTokenEncrypted: setup.get(SecretBox, { strict: false }).encrypt(seed.accessToken),
      throughput: PACED_RATE,
    });
    const admin = await seedBotAdmin(setup, seed.botId);
    await setup.close();

    const start = async (name: string, app: string, extra: Record<string, string>, healthPort: number) => {
      const child = startNode([`dist/apps/${app}/src/main.js`], { ...env, ...extra });
      procs.push({ name, child });
      await waitHealthy(`http://127.0.0.1:${healthPort}/health`, child, 60_000);
      return child;
    };
    const gatewayPorts = [await freePort(), await freePort()];
    for (const [i, port] of gatewayPorts.entries()) await start(`gateway ${i + 1}`, 'gateway', { PORT: String(port) }, port);
    for (const i of [1, 2]) {
      const port = await freePort();
      await start(`push service ${i}`, 'push-service', { PUSH_SERVICE_HEALTH_PORT: String(port) }, port);
    }
    const gateways = gatewayPorts.map((p) => `http://127.0.0.1:${p}`);
    const gatewayProcs = procs.filter((p) => p.name.startsWith('gateway'));

    // 1. Triggers.
    const answered = new Set<string>();
    let next = 0;
    const otherAnswers = new Map<number, number>();
    const triggerBody = (n: number) => {
      const number = `+91${7_000_000_000 + n}`;
      const body = carouselBody(seed, 3, number);
      if (n % PACED_EVERY === 0) body.notification.sender = `+${pacedNumber}`;
      return { number: number.slice(1), body: JSON.stringify(body) };
    };
    const load = (url: string, amount: number, connections: number) =>
      autocannon({
        url: `${url}/api/engagements/notifications/v2/push?bot=${seed.botId}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': seed.apiKey },
        connections,
        amount,
        requests: [
          {
            setupRequest: (req, context) => {
              const t = triggerBody(next++);
              (context as { number?: string }).number = t.number;
              return { ...req, body: t.body };
            },
            onResponse: (status, _body, context) => {
              if (status === 200) answered.add((context as { number: string }).number);
              else otherAnswers.set(status, (otherAnswers.get(status) ?? 0) + 1);
            },
          },
        ],
      });
    const triggerPhase = async (urls: string[], amount: number) => {
      const before = cpu(infra, gatewayProcs);
      const t = process.hrtime.bigint();
      await Promise.all(urls.map((u) => load(u, Math.floor(amount / urls.length), Math.floor(CONNECTIONS / urls.length))));
      const seconds = Number(process.hrtime.bigint() - t) / 1e9;
      const n = Math.floor(amount / urls.length) * urls.length;
      return { n, seconds, perSecond: n / seconds, cpu: perMessageUs(before, cpu(infra, gatewayProcs), n) };
    };
    await load(gateways[0], 500, 10); // warm-up: each gateway compiles its hot path before the clock starts
    await load(gateways[1], 500, 10);
    const oneGateway = await triggerPhase(gateways.slice(0, 1), TRIGGERS / 2);
    const twoGateways = await triggerPhase(gateways, TRIGGERS / 2);
    const expected = answered.size;
    const expectedPaced = [...answered].filter((n) => (Number(n.slice(2)) - 7_000_000_000) % PACED_EVERY === 0).length;

    // 2. Drain: one worker, then three. The queue is paused while workers start, so each window
    // counts only what its workers sent once they were all up.
    const queue = testQueue(QueueNames.carouselDispatch, infra.redisTarget);
    const workers: Named[] = [];
    const startWorkers = async (from: number, count: number) => {
      await queue.pause();
      const started = await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const port = await freePort();
          return { name: `channel worker ${from + i}`, child: await start(`channel worker ${from + i}`, 'channel-worker', { WORKER_HEALTH_PORT: String(port) }, port) };
        }),
      );
      workers.push(...started);
      const at = await accepted();
      const cpuAt = cpu(infra, workers);
      await queue.resume();
      return { at, cpuAt };
    };
    const accepted = async () => {
      const s = await providers!.stats();
      return { at: Date.now(), total: s.whatsapp.accepted };
    };
    const one = await startWorkers(1, 1);
    await new Promise((r) => setTimeout(r, ONE_WORKER_SECONDS * 1000));
    await queue.pause(); // lets the active jobs finish
    const t1 = await accepted();
    const cpu1 = cpu(infra, workers);
    const three = await startWorkers(2, 2);
    let last = three.at;
    let lastChange = Date.now();
    while (last.total < expected) {
      await new Promise((r) => setTimeout(r, 250));
      const now = await accepted();
      if (now.total !== last.total) lastChange = Date.now();
      else if (Date.now() - lastChange > STALL_MS) throw new Error(`drain stalled at ${now.total}/${expected}`);
      last = now;
    }
    const cpu3 = cpu(infra, workers);
    await queue.close();
    const oneWorker = { n: t1.total - one.at.total, seconds: (t1.at - one.at.at) / 1000, cpu: perMessageUs(one.cpuAt, cpu1, t1.total - one.at.total) };
    const threeWorkers = { n: last.total - three.at.total, seconds: (last.at - three.at.at) / 1000, cpu: perMessageUs(three.cpuAt, cpu3, last.total - three.at.total) };
    await new Promise((r) => setTimeout(r, 2_000)); // late duplicates, if any, arrive now
    const drained = await providers.stats(true);
    const lost = [...answered].filter((n) => !drained.whatsapp.recipients?.[n]).length;

    // 3. Push fan-out through both push services.
    const { account: serviceAccount, message } = benchServiceAccount(providers.urls.tokenUri);
    providers.send(message);
    const saved = await fetch(`${gateways[0]}/api/data/vault/saveBotConfig?bot=${seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': admin.accessToken },
      body: JSON.stringify({ notification: { firebaseConfig: { serviceAccount } } }),
    });
    if (!saved.ok) throw new Error(`saveBotConfig answered ${saved.status}: ${await saved.text()}`);
    const db = new pg.Client({ connectionString: infra.databaseUrl });
    await db.connect();
    await db.query(
      `INSERT INTO push_devices (id, bot_id, user_id, token, platform, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'user-' || g, 'bench-' || g || ':APA91b' || md5(g::text), 'android', now()
       FROM generate_series(1, $2::int) AS g`,
      [seed.botId, DEVICES],
    );
    await db.query('VACUUM ANALYZE push_devices');
    const pushProcs = procs.filter((p) => p.name.startsWith('push'));
    const cpuPush0 = cpu(infra, pushProcs);
    const pushStarted = process.hrtime.bigint();
    const auth = { authorization: `Bearer ${seed.apiKey}` };
    const sent = await fetch(`${gateways[1]}/v1/bots/${seed.botId}/notifications`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ all: true, title: 'Benchmark', body: 'Hello from the replicas benchmark', journeySlug: 'bench' }),
    });
    if (sent.status !== 202) throw new Error(`push send answered ${sent.status}: ${await sent.text()}`);
    const { notificationId } = (await sent.json()) as { notificationId: string };
    let push: { status: string; pending: number; total: number; sent: number; failed: number };
    let pushLastChange = Date.now();
    let pushLastSent = -1;
    for (;;) {
      push = await (await fetch(`${gateways[0]}/v1/bots/${seed.botId}/notifications/${notificationId}`, { headers: auth })).json();
      if ((push.status === 'completed' || push.status === 'failed') && push.pending === 0) break;
      if (push.sent !== pushLastSent) {
        pushLastSent = push.sent;
        pushLastChange = Date.now();
      } else if (Date.now() - pushLastChange > STALL_MS) throw new Error(`push stalled: ${JSON.stringify(push)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const pushSeconds = Number(process.hrtime.bigint() - pushStarted) / 1e9;
    const pushCpu = perMessageUs(cpuPush0, cpu(infra, pushProcs), push.sent);
    const { rows } = await db.query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM messages GROUP BY status ORDER BY status');
    await db.end();
    await new Promise((r) => setTimeout(r, 1_000));
    const final = await providers.stats();

    const paced = final.whatsapp.senders.find((s) => s.phoneNumberId === pacedPhoneNumberId);
    const fastSender = final.whatsapp.senders.find((s) => s.phoneNumberId === fastPhoneNumberId);
    const failures: string[] = [];
    const non2xx = [...otherAnswers.values()].reduce((a, b) => a + b, 0);
    const otherList = [...otherAnswers].map(([status, n]) => `${n}× ${status}`).join(', ') || 'none';
    if (non2xx > 0) failures.push(`${non2xx} triggers answered non-2xx (${otherList})`);
    if (lost > 0) failures.push(`${lost} triggers answered 200 never reached the Cloud API`);
    if (paced && paced.busiestSecond > PACED_RATE) failures.push(`the paced sender's busiest second had ${paced.busiestSecond} > ${PACED_RATE}`);
    if (push.sent !== DEVICES || final.fcm.ok - final.fcm.extraMessages !== DEVICES) failures.push(`push: sent ${push.sent}, FCM accepted ${final.fcm.ok} for ${DEVICES} devices`);

    const lines = [
      `### Many replicas: 2 gateways, 3 channel workers, 2 push services on ${ON_CLUSTER ? 'a 6-node Redis Cluster (3 masters, 3 replicas)' : 'one Redis'} (${new Date().toISOString().slice(0, 10)})`,
      '',
      `Machine: ${machineLine(machine)}.`,
      `All seven app processes, Postgres, Redis, the load generator and the outside-service fakes share the machine's ${machine.cores} cores: absolute figures are bounded by that; CPU per message shows how the cost scales.`,
      '',
      '| Phase | messages | seconds | per second | app CPU µs/msg | Redis µs/msg | Postgres µs/msg | total µs/msg |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      `| triggers, 1 gateway (${CONNECTIONS} connections) | ${fmt(oneGateway.n)} | ${fmt(oneGateway.seconds, 1)} | ${fmt(oneGateway.perSecond)} | ${cpuCells(oneGateway.cpu)} |`,
      `| triggers, 2 gateways (${CONNECTIONS / 2} connections each) | ${fmt(twoGateways.n)} | ${fmt(twoGateways.seconds, 1)} | ${fmt(twoGateways.perSecond)} | ${cpuCells(twoGateways.cpu)} |`,
      `| drain, 1 channel worker (first ${ONE_WORKER_SECONDS} s) | ${fmt(oneWorker.n)} | ${fmt(oneWorker.seconds, 1)} | ${fmt(oneWorker.n / oneWorker.seconds)} | ${cpuCells(oneWorker.cpu)} |`,
      `| drain, 3 channel workers (the rest) | ${fmt(threeWorkers.n)} | ${fmt(threeWorkers.seconds, 1)} | ${fmt(threeWorkers.n / threeWorkers.seconds)} | ${cpuCells(threeWorkers.cpu)} |`,
      `| push fan-out, 2 push services | ${fmt(push.sent)} | ${fmt(pushSeconds, 1)} | ${fmt(push.sent / pushSeconds)} | ${cpuCells(pushCpu)} |`,
      '',
      `- Triggers: ${fmt(next)} sent, ${fmt(expected)} answered 200, other answers: ${otherList}; the Cloud API received ${fmt(final.whatsapp.accepted)}: **${lost} lost, ${final.whatsapp.extraMessages} duplicates** (${final.whatsapp.duplicatedRecipients} recipients got more than one).`,
      `- Message rows by status: ${rows.map((r) => `${r.status} ${fmt(Number(r.n))}`).join(', ')}.`,
      `- Pacing across the 3 workers: the sender paced at ${PACED_RATE}/s got ${fmt(paced?.messages ?? 0)} messages (${fmt(expectedPaced)} expected) over ${paced?.spanSeconds ?? 0} s, **busiest second ${paced?.busiestSecond ?? 0}**; the sender at ${FAST_RATE}/s got ${fmt(fastSender?.messages ?? 0)}, busiest second ${fastSender?.busiestSecond ?? 0}.`,
      `- Push: ${fmt(DEVICES)} devices, notification ${push.status}, sent ${fmt(push.sent)}, failed ${push.failed}; FCM received ${fmt(final.fcm.received)}, accepted ${fmt(final.fcm.ok)}: **${final.fcm.extraMessages} duplicates** (${final.fcm.duplicatedTokens} devices got more than one).`,
      failures.length ? `- **FAILED:** ${failures.join('; ')}.` : '- Nothing lost; every check passed.',
    ];
    process.stdout.write(lines.join('\n') + '\n');
    if (failures.length) process.exitCode = 1;
  } finally {
    for (const p of procs.reverse()) await stopProcess(p.child).catch(() => undefined);
    await providers?.stop().catch(() => undefined);
    await infra.stop();
  }
}

runBench(main);
