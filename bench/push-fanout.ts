// Benchmark of the push fan-out: N registered devices (bulk-inserted with SQL), one notification to
// all of them, through the gateway and the push service to a loopback FCM server over HTTP/2 cleartext,
// after a warm-up fan-out to other devices. Prints messages/s and total time.
// Usage: npm run bench:push  (BENCH_DEVICES=100000 by default; PUSH_* / FCM_* variables tune the push service)
//        BENCH_WARMUP_DEVICES=10000: the warm-up fan-out before the clock starts (its devices are then deleted).
//        BENCH_FCM_FAKE=nginx (default; bench/fcm-nginx-fake.ts, installs nginx-light if missing) or node
//        (the tests' FcmSandbox in a child process: checks every message, costs far more CPU).
import 'reflect-metadata';
import { ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { PushConfigService } from '../apps/push-service/src/service-accounts/push-config.service.js';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { AccessTokenProvider } from '../apps/push-service/src/fcm/access-token.provider.js';
import { PushEnv } from '@platform/config';
import { SecretBox } from '@platform/crypto';
import { FcmSandbox, GoogleOAuthSandbox } from '@platform/sandbox';
import { cpuSecondsOf, cpuSecondsWithChildren, describeMachine, fmt, machineLine, startInfra, runBench, benchServiceAccount } from './common.js';
import { freePort, startNginxFcmFake } from './fcm-nginx-fake.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const WARMUP_DEVICES = Number(process.env.BENCH_WARMUP_DEVICES ?? 10_000);
const FAKE = process.env.BENCH_FCM_FAKE ?? 'nginx';

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
    let fakePid = child.pid!; // the Node fake runs in the providers child
    if (FAKE === 'nginx') {
      // nginx accepts exactly the access token the push service mints (and caches) for the bot.
      const accessToken = await push.get(AccessTokenProvider).get((await push.get(PushConfigService).load(bot.id))!);
      const nginx = await startNginxFcmFake({ port: nginxPort, projectId: account.project_id, accessToken });
      cleanups.unshift(() => nginx.stop());
      countFcm = () => nginx.count();
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
    const before = await countFcm();

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
    const cfg = push.get(PushEnv);
    process.stdout.write(
      [
        `machine: ${machineLine(machine)}`,
        `push fan-out benchmark (loopback FCM fake ${FAKE} over HTTP/2, ${cfg.FCM_MAX_IN_FLIGHT} in flight, batch ${cfg.PUSH_BATCH_SIZE}, worker concurrency ${cfg.PUSH_WORKER_CONCURRENCY}, ${cfg.FCM_SENDER_THREADS} sender threads)`,
        `  warm-up:          ${WARMUP_DEVICES} devices (one notification, removed before the measured run)`,
        `  devices:          ${DEVICES}`,
        `  notification:     ${final.status}, total ${final.total}, sent ${final.sent}, failed ${final.failed}`,
        `  FCM received:     ${received}, answered 200: ${after.ok - before.ok}`,
        `  accepted (202):   ${accepted.toFixed(0)} ms`,
        `  total time:       ${seconds.toFixed(2)} s (request to last count)`,
        `  throughput:       ${Math.round(final.sent / seconds).toLocaleString('en-US')} messages/s`,
        `  CPU per message:  ${fmt(cpuTotal)} µs = gateway + push service (all threads) ${fmt(cpu.platform)}, FCM fake ${fmt(cpu.fake)}, ` +
          `Redis ${fmt(cpu.redis)}, Postgres ${fmt(cpu.postgres)} (two cores allow ${fmt(2e6 / 10_000)} µs at 10,000/s)`,
      ].join('\n') + '\n',
    );
    if (final.sent !== DEVICES || received !== DEVICES || after.ok - before.ok !== DEVICES) process.exitCode = 1;
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((err) => process.stderr.write(`cleanup: ${err}\n`));
  }
}

if (process.argv.includes('--providers')) {
  void runProviders(process.argv.includes('--fcm'));
} else {
  runBench(main);
}
