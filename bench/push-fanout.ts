// Benchmark of the push fan-out: N registered devices (bulk-inserted with SQL), one notification to
// all of them, through the gateway and the push service to a loopback FCM server over HTTP/2 cleartext,
// after a warm-up fan-out to other devices. Prints messages/s and total time.
// Usage: npm run bench:push  (BENCH_DEVICES=100000 by default; PUSH_* / FCM_* variables tune the push service)
//        BENCH_WARMUP_DEVICES=10000: the warm-up fan-out before the clock starts (its devices are then deleted).
//        BENCH_FCM_FAKE=nginx (default; bench/fcm-nginx-fake.ts, installs nginx-light if missing) or node
//        (the tests' FcmSandbox in a child process: checks every message, costs far more CPU).
//        BENCH_FCM_QUOTA_PER_MINUTE=600000: after the unpaced run (the bot's quota far above any rate), the
//        same fan-out paced at this quota; prints its highest second against quota/60 and its highest
//        60 s against the quota (nginx fake only: counted from its access log).
import 'reflect-metadata';
import { ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { PushConfigService } from '../apps/push-service/src/service-accounts/push-config.service.js';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { AccessTokenProvider } from '../apps/push-service/src/fcm/access-token.provider.js';
import { PushEnv } from '@platform/config';
import { PushConfigRepository } from '@platform/database';
import { SecretBox } from '@platform/crypto';
import { FcmSandbox, GoogleOAuthSandbox } from '@platform/sandbox';
import { cpuSecondsOf, cpuSecondsWithChildren, describeMachine, fmt, machineLine, startInfra, runBench, benchServiceAccount } from './common.js';
import { freePort, startNginxFcmFake } from './fcm-nginx-fake.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const WARMUP_DEVICES = Number(process.env.BENCH_WARMUP_DEVICES ?? 10_000);
const FAKE = process.env.BENCH_FCM_FAKE ?? 'nginx';
const QUOTA = Number(process.env.BENCH_FCM_QUOTA_PER_MINUTE ?? 600_000);
/** The bot's quota for the unpaced run: the pacer hands out far more than the push service can send. */
const UNPACED_QUOTA = 1_000_000_000;

interface ChildReady {
  fcmUrl: string;
  tokenUri: string;
}

type FcmCount = { total: number; ok: number };

/** The child: loopback Google token endpoint and, with --fcm, FcmSandbox over HTTP/2, counting messages. */
async function runProviders(withFcm: boolean): Promise<void> {
  const oauth = new GoogleOAuthSandbox();
  await oauth.listen();
  const fcm = withFcm ? new FcmSandbox({ verifyAccessToken: (t) => oauth.verifyAccessToken(t), record: false }) : undefined;
  await fcm?.listen();
  process.on('message', (msg: { type: string; clientEmail?: string; projectId?: string; publicKey?: string }) => {
    if (msg.type === 'account') oauth.registerAccount(msg.clientEmail!, msg.projectId!, msg.publicKey!);
    if (msg.type === 'count') process.send!({ type: 'count', total: fcm?.total ?? 0, ok: fcm?.counts.get(200) ?? 0 } satisfies FcmCount & { type: string });
    if (msg.type === 'stop') void Promise.all([fcm?.close(), oauth.close()]).then(() => process.exit(0));
  });
  process.send!({ type: 'ready', fcmUrl: fcm?.baseUrl ?? '', tokenUri: oauth.tokenUri } satisfies ChildReady & { type: string });
}

function request<T>(child: ChildProcess, msg: object, want: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type === want) {
        child.off('message', on);
        resolve(m as T);
      }
    };
    child.on('message', on);
    child.send(msg);
  });
}

async function main(): Promise<void> {
  const infra = await startInfra('push');
  const { databaseUrl } = infra;
  const cleanups: Array<() => Promise<unknown>> = [() => infra.stop()];
  try {
    const child = fork(fileURLToPath(import.meta.url), ['--providers', ...(FAKE === 'node' ? ['--fcm'] : [])], { stdio: 'inherit' });
    cleanups.push(() => new Promise((resolve) => (child.once('exit', resolve), child.send({ type: 'stop' }))));
    const ready = await new Promise<ChildReady>((resolve) => child.once('message', (m) => resolve(m as ChildReady)));
    const nginxPort = FAKE === 'nginx' ? await freePort() : 0;

    const env: Record<string, string> = {
      ...infra.env,
      PORT: '0',
      PUSH_SERVICE_HEALTH_PORT: '0',
      FCM_API_BASE_URL: FAKE === 'nginx' ? `http://127.0.0.1:${nginxPort}` : ready.fcmUrl,
      PUSH_ALLOW_INSECURE_TOKEN_URI: 'true',
      OPENAPI_UI: 'false',
    };
    const gateway = await createGateway(env);
    const url = await listenGateway(gateway);
    cleanups.unshift(() => gateway.close());
    const push = await createPushService(env);
    cleanups.unshift(() => push.close());

    const bot = { id: infra.seed.botId };
    const key = infra.seed.apiKey;
    const { account, message: accountMessage } = benchServiceAccount(ready.tokenUri);
    child.send(accountMessage);
    const saved = await push.get(PushConfigService).save(bot.id, { sealedServiceAccount: push.get(SecretBox).encrypt(JSON.stringify(account)) });
    if (saved.kind !== 'done') throw new Error(`config not saved: ${saved.message}`);
    let countFcm = () => request<FcmCount>(child, { type: 'count' }, 'count');
    let perSecond: (() => Promise<Map<number, number>>) | undefined;
    let fakePid = child.pid!; // the Node fake runs in the providers child
    if (FAKE === 'nginx') {
      // nginx accepts exactly the access token the push service mints (and caches) for the bot.
      const accessToken = await push.get(AccessTokenProvider).get((await push.get(PushConfigService).load(bot.id))!);
      const nginx = await startNginxFcmFake({ port: nginxPort, projectId: account.project_id, accessToken });
      cleanups.unshift(() => nginx.stop());
      countFcm = () => nginx.count();
      perSecond = () => nginx.perSecond();
      fakePid = nginx.pid;
    } else if (FAKE !== 'node') {
      throw new Error(`BENCH_FCM_FAKE must be nginx or node, not ${FAKE}`);
    }

    const send = async (body: object) => {
      const res = await fetch(`${url}/v1/bots/${bot.id}/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 202) throw new Error(`send answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { notificationId: string }).notificationId;
    };
    const waitDone = async (id: string) => {
      for (;;) {
        const s = (await (await fetch(`${url}/v1/bots/${bot.id}/notifications/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
          status: string;
          pending: number;
          total: number;
          sent: number;
          failed: number;
        };
        if ((s.status === 'completed' || s.status === 'failed') && s.pending === 0) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    /** Inserts `count` live android devices of users `<prefix>-1` … with tokens unique to the prefix. */
    const insertDevices = (prefix: string, count: number) =>
      db.query(
        `INSERT INTO push_devices (id, bot_id, user_id, token, platform, updated_at)
         SELECT gen_random_uuid(), $1::uuid, $2 || '-' || g, $2 || '-' || g || ':APA91b' || md5(g::text) || md5((g * 7)::text), 'android', now()
         FROM generate_series(1, $3::int) AS g`,
        [bot.id, prefix, count],
      );
    const message = { title: 'Benchmark', body: 'Hello from the fan-out benchmark', journeySlug: 'bench', data: { campaign: 'bench' } };

    // Warm-up, the same fan-out to devices removed before the measured run: mints the access token,
    // opens the HTTP/2 sessions and lets V8 compile the hot paths before the clock starts.
    const machine = await describeMachine(infra);
    await insertDevices('warm-up', WARMUP_DEVICES);
    const warmup = await waitDone(await send({ all: true, ...message }));
    if (warmup.sent !== WARMUP_DEVICES) throw new Error(`warm-up sent ${warmup.sent} of ${WARMUP_DEVICES}`);
    await db.query('DELETE FROM push_devices WHERE bot_id = $1', [bot.id]);

    const insertStarted = Date.now();
    await insertDevices('bench', DEVICES);
    await db.query('VACUUM ANALYZE push_devices');
    await db.end();
    process.stdout.write(`setup: ${DEVICES} devices inserted in ${Date.now() - insertStarted} ms\n`);
    const cfg = push.get(PushEnv);
    const setQuota = (perMinute: number) => push.get(PushConfigRepository).setFcmQuota(bot.id, perMinute);
    process.stdout.write(
      [
        `machine: ${machineLine(machine)}`,
        `push fan-out benchmark (loopback FCM fake ${FAKE} over HTTP/2, ${cfg.FCM_MAX_IN_FLIGHT} in flight, batch ${cfg.PUSH_BATCH_SIZE}, worker concurrency ${cfg.PUSH_WORKER_CONCURRENCY}, ${cfg.FCM_SENDER_THREADS} sender threads)`,
        `  warm-up:          ${WARMUP_DEVICES} devices (one notification, removed before the measured runs)`,
        `  devices:          ${DEVICES}`,
      ].join('\n') + '\n',
    );

    /** One measured fan-out to every device at the bot's quota `perMinute`; prints its figures. */
    const measure = async (label: string, perMinute: number) => {
      await setQuota(perMinute);
      const before = await countFcm();
      const secondsBefore = perSecond ? new Set((await perSecond()).keys()) : undefined;

      // CPU seconds of each process that works for the fan-out (all threads; nginx with its worker).
      const cpuNow = () => ({
        platform: cpuSecondsOf(process.pid),
        fake: cpuSecondsWithChildren(fakePid),
        redis: cpuSecondsOf(infra.pids.redis),
        postgres: cpuSecondsWithChildren(infra.pids.postgres),
      });
      const cpuBefore = cpuNow();
      const started = process.hrtime.bigint();
      const id = await send({ all: true, ...message });
      const accepted = Number(process.hrtime.bigint() - started) / 1e6;
      const final = await waitDone(id);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpuAfter = cpuNow();
      const after = await countFcm();
      const perMessage = (k: keyof typeof cpuBefore) => ((cpuAfter[k] - cpuBefore[k]) * 1e6) / Math.max(1, final.sent);
      const cpu = { platform: perMessage('platform'), fake: perMessage('fake'), redis: perMessage('redis'), postgres: perMessage('postgres') };
      const cpuTotal = cpu.platform + cpu.fake + cpu.redis + cpu.postgres;
      const received = after.total - before.total;

      const lines = [
        `  ${label}`,
        `    notification:     ${final.status}, total ${final.total}, sent ${final.sent}, failed ${final.failed}`,
        `    FCM received:     ${received}, answered 200: ${after.ok - before.ok}`,
        `    accepted (202):   ${accepted.toFixed(0)} ms`,
        `    total time:       ${seconds.toFixed(2)} s (request to last count)`,
        `    throughput:       ${Math.round(final.sent / seconds).toLocaleString('en-US')} messages/s`,
        `    CPU per message:  ${fmt(cpuTotal)} µs = gateway + push service (all threads) ${fmt(cpu.platform)}, FCM fake ${fmt(cpu.fake)}, ` +
          `Redis ${fmt(cpu.redis)}, Postgres ${fmt(cpu.postgres)} (two cores allow ${fmt(2e6 / 10_000)} µs at 10,000/s)`,
      ];
      if (perSecond && secondsBefore) {
        // Messages FCM accepted in each second of this run, then the busiest second and the busiest 60 s in a row.
        const counts = [...(await perSecond())].filter(([sec]) => !secondsBefore.has(sec)).sort((a, b) => a[0] - b[0]);
        const bySec = new Map(counts);
        const first = counts[0]?.[0] ?? 0;
        const last = counts.at(-1)?.[0] ?? 0;
        let highestSecond = 0;
        let highestMinute = 0;
        let window = 0;
        for (let sec = first; sec <= last; sec++) {
          const n = bySec.get(sec) ?? 0;
          highestSecond = Math.max(highestSecond, n);
          window += n - (bySec.get(sec - 60) ?? 0);
          highestMinute = Math.max(highestMinute, window);
        }
        const share = Math.floor(perMinute / 60);
        const span = last - first + 1;
        lines.push(
          `    highest second:   ${highestSecond.toLocaleString('en-US')} messages` +
            (perMinute < UNPACED_QUOTA ? ` against the quota's share of ${share.toLocaleString('en-US')} a second (${((100 * highestSecond) / share).toFixed(1)} %)` : ''),
          `    highest 60 s:     ${highestMinute.toLocaleString('en-US')} messages` +
            (perMinute < UNPACED_QUOTA ? ` against the quota of ${perMinute.toLocaleString('en-US')} a minute (${((100 * highestMinute) / perMinute).toFixed(1)} %)` : '') +
            (span < 60 ? ` (the run spans ${span} s, less than a minute)` : ''),
        );
      }
      process.stdout.write(lines.join('\n') + '\n');
      if (final.sent !== DEVICES || received !== DEVICES || after.ok - before.ok !== DEVICES) process.exitCode = 1;
    };

    await measure("unpaced (the bot's quota far above any rate this host reaches)", UNPACED_QUOTA);
    await measure(`paced at ${QUOTA.toLocaleString('en-US')} messages a minute (BENCH_FCM_QUOTA_PER_MINUTE)`, QUOTA);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((err) => process.stderr.write(`cleanup: ${err}\n`));
  }
}

if (process.argv.includes('--providers')) {
  void runProviders(process.argv.includes('--fcm'));
} else {
  runBench(main);
}
