// Benchmark of the push fan-out: N registered devices (bulk-inserted with SQL), one notification to
// all of them, through the gateway and the push service to a loopback FCM server over HTTP/2 cleartext,
// after a warm-up fan-out to other devices. Prints messages/s and total time for each run.
// Usage: npm run bench:push  (BENCH_DEVICES=100000 by default, up to 1,000,000 and more; PUSH_* / FCM_* variables tune the push service)
//        BENCH_WARMUP_DEVICES=10000: the warm-up fan-out before the clock starts (its devices are then deleted).
//        BENCH_FCM_FAKE=nginx (default; bench/fcm-nginx-fake.ts, installs nginx-light if missing) or node
//        (the tests' FcmSandbox in a child process: checks every message, costs far more CPU; no quota runs).
//        BENCH_QUOTA_PER_MIN (or BENCH_FCM_QUOTA_PER_MINUTE)=600000: FCM's quota of the project, in messages a minute.
//        BENCH_PUSH_RUNS=unpaced,storm,paced: the runs, in this order:
//          unpaced: FCM without a quota, the bot's quota far above any rate (the fan-out's own throughput);
//          storm:   FCM holds the quota (nginx limit_req, 429 + Retry-After: 1 past it), the bot's quota still far above
//                   (what happens without pacing: the 429s received);
//          paced:   FCM holds the quota and the bot's quota is set to it (the pacer): its highest second, 10 s and
//                   60 s against the quota, its total time against the ideal (devices / (quota / 60) s), its 429s.
//        BENCH_PUSH_REPLICAS=1: push services; past the first (in this process), built ones started from dist
//          (they share each project's budget through Redis only).
//        A real minute at 600,000 a minute is 1,000,000 devices in 100 s a run: BENCH_QUOTA_PER_MIN=60000 with
//        BENCH_DEVICES=100000 shows the same shape in the same time, scaled down tenfold.
import 'reflect-metadata';
import { ChildProcess, fork, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createGateway, listenGateway } from '../apps/gateway/src/create-gateway.js';
import { PushConfigService } from '../apps/push-service/src/service-accounts/push-config.service.js';
import { createPushService } from '../apps/push-service/src/create-push-service.js';
import { AccessTokenProvider } from '../apps/push-service/src/fcm/access-token.provider.js';
import { CoreEnv, PushEnv } from '@platform/config';
import { REQUEST_REDIS, type RedisClient, fcmPaceKey } from '@platform/queue';
import { PushConfigRepository } from '@platform/database';
import { SecretBox } from '@platform/crypto';
import { FcmSandbox, GoogleOAuthSandbox } from '@platform/sandbox';
import { cpuSecondsOf, cpuSecondsWithChildren, describeMachine, fmt, machineLine, startInfra, reportFailures, runBench, benchServiceAccount } from './common.js';
import { freePort, startNginxFcmFake } from './fcm-nginx-fake.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const WARMUP_DEVICES = Number(process.env.BENCH_WARMUP_DEVICES ?? 10_000);
const FAKE = process.env.BENCH_FCM_FAKE ?? 'nginx';
const QUOTA = Number(process.env.BENCH_QUOTA_PER_MIN ?? process.env.BENCH_FCM_QUOTA_PER_MINUTE ?? 600_000);
const RUNS = (process.env.BENCH_PUSH_RUNS ?? 'unpaced,storm,paced').split(',').map((r) => r.trim());
const REPLICAS = Number(process.env.BENCH_PUSH_REPLICAS ?? 1);
/** The bot's quota for the unpaced run: the pacer hands out far more than the push service can send. */
const UNPACED_QUOTA = 1_000_000_000;

interface ChildReady {
  fcmUrl: string;
  tokenUri: string;
}

type FcmCount = { total: number; ok: number; throttled: number };

/** The child: loopback Google token endpoint and, with --fcm, FcmSandbox over HTTP/2, counting messages. */
async function runProviders(withFcm: boolean): Promise<void> {
  const oauth = new GoogleOAuthSandbox();
  await oauth.listen();
  const fcm = withFcm ? new FcmSandbox({ verifyAccessToken: (t) => oauth.verifyAccessToken(t), record: false }) : undefined;
  await fcm?.listen();
  process.on('message', (msg: { type: string; clientEmail?: string; projectId?: string; publicKey?: string }) => {
    if (msg.type === 'account') oauth.registerAccount(msg.clientEmail!, msg.projectId!, msg.publicKey!);
    if (msg.type === 'count') process.send!({ type: 'count', total: fcm?.total ?? 0, ok: fcm?.counts.get(200) ?? 0, throttled: fcm?.counts.get(429) ?? 0 } satisfies FcmCount & { type: string });
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
  if (!Number.isSafeInteger(QUOTA) || QUOTA < 60) throw new Error(`BENCH_QUOTA_PER_MIN must be an integer of at least 60, not ${QUOTA}`);
  if (!Number.isSafeInteger(DEVICES) || DEVICES < 1) throw new Error(`BENCH_DEVICES must be a positive integer, not ${process.env.BENCH_DEVICES}`);
  if (!Number.isSafeInteger(REPLICAS) || REPLICAS < 1) throw new Error(`BENCH_PUSH_REPLICAS must be a positive integer, not ${process.env.BENCH_PUSH_REPLICAS}`);
  const unknownRuns = RUNS.filter((r) => !['unpaced', 'storm', 'paced'].includes(r));
  if (unknownRuns.length > 0 || RUNS.length === 0) throw new Error(`BENCH_PUSH_RUNS takes unpaced, storm and paced, not ${unknownRuns.join(', ')}`);
  if (FAKE === 'node' && RUNS.includes('storm')) throw new Error('the storm run needs the nginx FCM fake (BENCH_FCM_FAKE=nginx): the Node fake holds no quota here');
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
    let enforceQuota = (on: boolean) => {
      if (on) throw new Error('FCM quota needs the nginx fake');
    };
    let fakePid = child.pid!; // the Node fake runs in the providers child
    if (FAKE === 'nginx') {
      // nginx accepts exactly the access token the push service mints (and caches) for the bot.
      const accessToken = await push.get(AccessTokenProvider).get((await push.get(PushConfigService).load(bot.id))!);
      const nginx = await startNginxFcmFake({ port: nginxPort, projectId: account.project_id, accessToken, quotaPerMinute: QUOTA });
      cleanups.unshift(() => nginx.stop());
      countFcm = () => nginx.count();
      enforceQuota = (on) => nginx.enforceQuota(on);
      perSecond = () => nginx.perSecond();
      fakePid = nginx.pid;
    } else if (FAKE !== 'node') {
      throw new Error(`BENCH_FCM_FAKE must be nginx or node, not ${FAKE}`);
    }

    // More push services, built, as replicas run: the access token is already cached in Redis, so they send with the same one.
    const replicaPids: number[] = [];
    for (let i = 1; i < REPLICAS; i++) {
      const replica = spawn(process.execPath, [fileURLToPath(new URL('../apps/push-service/src/main.js', import.meta.url))], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      cleanups.unshift(async () => {
        if (replica.exitCode !== null) return;
        const exited = new Promise((resolve) => replica.once('exit', resolve));
        replica.kill('SIGTERM');
        await exited;
      });
      await new Promise<void>((resolve, reject) => {
        let out = '';
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          if (!out.includes('push service ready')) return;
          replica.stdout!.off('data', onData);
          replica.stdout!.resume(); // its later log lines are dropped
          resolve();
        };
        replica.stdout!.on('data', onData);
        replica.once('exit', (code) => reject(new Error(`push service replica ${i} exited with code ${code} before it was ready`)));
      });
      replicaPids.push(replica.pid!);
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
    const share = Math.floor(QUOTA / 60);
    const idealSeconds = DEVICES / share;
    process.stdout.write(
      [
        `machine: ${machineLine(machine)}`,
        `push fan-out benchmark (loopback FCM fake ${FAKE} over HTTP/2, ${REPLICAS} push service${REPLICAS > 1 ? 's' : ''}, each ${cfg.FCM_MAX_IN_FLIGHT} in flight, batch ${cfg.PUSH_BATCH_SIZE}, worker concurrency ${cfg.PUSH_WORKER_CONCURRENCY}, ${cfg.FCM_SENDER_THREADS} sender threads)`,
        `  FCM quota:        ${QUOTA.toLocaleString('en-US')} messages a minute for the project (${share.toLocaleString('en-US')} a second; ideal paced time ${idealSeconds.toFixed(1)} s)`,
        `  warm-up:          ${WARMUP_DEVICES} devices (one notification, removed before the measured runs)`,
        `  devices:          ${DEVICES}`,
      ].join('\n') + '\n',
    );

    const failures: string[] = [];
    /**
     * One measured fan-out to every device at the bot's quota `perMinute`, FCM holding the project's
     * quota or not; prints its figures and notes the checks that failed.
     */
    const measure = async (run: 'unpaced' | 'storm' | 'paced') => {
      const perMinute = run === 'paced' ? QUOTA : UNPACED_QUOTA;
      const label = {
        unpaced: "unpaced, FCM without a quota (the bot's quota far above any rate this host reaches)",
        storm: "unpaced against FCM's quota (429 + Retry-After past it): what a fan-out does without the pacer",
        paced: `paced at the quota, ${QUOTA.toLocaleString('en-US')} messages a minute, FCM holding it`,
      }[run];
      await setQuota(perMinute);
      // Each run starts as a fresh project: the storm run's hold and slow-down (kept in Redis for the
      // project, PUSH_FCM_SLOW_DOWN_MS) would otherwise slow the paced run after it.
      await push.get<RedisClient>(REQUEST_REDIS, { strict: false }).del(fcmPaceKey(push.get(CoreEnv), account.project_id), `${fcmPaceKey(push.get(CoreEnv), account.project_id)}:sending`);
      enforceQuota(run !== 'unpaced');
      const before = await countFcm();
      const secondsBefore = perSecond ? new Set((await perSecond()).keys()) : undefined;

      // CPU seconds of each process that works for the fan-out (all threads; nginx with its worker).
      const cpuNow = () => ({
        platform: cpuSecondsOf(process.pid) + replicaPids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0),
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
      enforceQuota(false);
      const perMessage = (k: keyof typeof cpuBefore) => ((cpuAfter[k] - cpuBefore[k]) * 1e6) / Math.max(1, final.sent);
      const cpu = { platform: perMessage('platform'), fake: perMessage('fake'), redis: perMessage('redis'), postgres: perMessage('postgres') };
      const cpuTotal = cpu.platform + cpu.fake + cpu.redis + cpu.postgres;
      const received = after.total - before.total;
      const ok = after.ok - before.ok;
      const throttled = after.throttled - before.throttled;

      const lines = [
        `  ${run}: ${label}`,
        `    notification:     ${final.status}, total ${final.total}, sent ${final.sent}, failed ${final.failed}`,
        `    FCM received:     ${received}, answered 200: ${ok}, 429 (quota): ${throttled}`,
        `    accepted (202):   ${accepted.toFixed(0)} ms`,
        `    total time:       ${seconds.toFixed(2)} s (request to last count)` +
          (run === 'unpaced' ? '' : `; the quota allows it in ${idealSeconds.toFixed(1)} s at best: ${((100 * seconds) / idealSeconds).toFixed(1)} % of the ideal`),
        `    throughput:       ${Math.round(final.sent / seconds).toLocaleString('en-US')} messages/s`,
        `    CPU per message:  ${fmt(cpuTotal)} µs = gateway + push service${REPLICAS > 1 ? 's' : ''} (all threads) ${fmt(cpu.platform)}, FCM fake ${fmt(cpu.fake)}, ` +
          `Redis ${fmt(cpu.redis)}, Postgres ${fmt(cpu.postgres)} (two cores allow ${fmt(2e6 / 10_000)} µs at 10,000/s)`,
      ];
      const highest = { second: 0, tenSeconds: 0, minute: 0 };
      if (perSecond && secondsBefore) {
        // Messages FCM accepted in each second of this run, then the busiest 1, 10 and 60 s in a row (sliding).
        const counts = [...(await perSecond())].filter(([sec]) => !secondsBefore.has(sec)).sort((a, b) => a[0] - b[0]);
        const bySec = new Map(counts);
        const first = counts[0]?.[0] ?? 0;
        const last = counts.at(-1)?.[0] ?? 0;
        let ten = 0;
        let sixty = 0;
        for (let sec = first; sec <= last; sec++) {
          const n = bySec.get(sec) ?? 0;
          highest.second = Math.max(highest.second, n);
          ten += n - (bySec.get(sec - 10) ?? 0);
          sixty += n - (bySec.get(sec - 60) ?? 0);
          highest.tenSeconds = Math.max(highest.tenSeconds, ten);
          highest.minute = Math.max(highest.minute, sixty);
        }
        const span = last - first + 1;
        const against = (n: number, of: number) => `${n.toLocaleString('en-US')} against the quota's ${of.toLocaleString('en-US')} (${((100 * n) / of).toFixed(1)} %)`;
        lines.push(
          `    highest second:   ${against(highest.second, share)}`,
          `    highest 10 s:     ${against(highest.tenSeconds, share * 10)}` + (span < 10 ? ` (the run spans ${span} s)` : ''),
          `    highest 60 s:     ${against(highest.minute, QUOTA)}` +
            (span < 60 ? ` (the run spans ${span} s, less than a minute: a whole minute at this quota is ${QUOTA.toLocaleString('en-US')} devices)` : ''),
        );
      }
      process.stdout.write(lines.join('\n') + '\n');
      if (run === 'storm') {
        if (final.pending !== 0 || final.total !== DEVICES) failures.push(`storm: the notification did not settle (${JSON.stringify(final)})`);
        return;
      }
      if (final.sent !== DEVICES || ok !== DEVICES) failures.push(`${run}: sent ${final.sent}, FCM answered 200 to ${ok}, of ${DEVICES} devices`);
      if (run === 'paced') {
        if (throttled > 0) failures.push(`paced: FCM answered 429 ${throttled} times`);
        if (perSecond && highest.minute > QUOTA) failures.push(`paced: ${highest.minute} messages in 60 s, above the quota of ${QUOTA}`);
        if (perSecond && highest.second > share) failures.push(`paced: ${highest.second} messages in a second, above the quota's ${share}`);
      }
    };

    for (const run of RUNS) await measure(run as 'unpaced' | 'storm' | 'paced');
    reportFailures(failures);
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((err) => process.stderr.write(`cleanup: ${err}\n`));
  }
}

if (process.argv.includes('--providers')) {
  void runProviders(process.argv.includes('--fcm'));
} else {
  runBench(main);
}
