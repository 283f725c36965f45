import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { migrate } from '@platform/database';
import { LocalPostgres, LocalRedis, startLocalPostgres, startLocalRedis } from '@platform/local-infra';
import { EchoBot, SANDBOX_WABA_ID, WhatsAppCloudSandbox } from '@platform/sandbox';
import { writeLocalStack } from '../../apps/cli/src/local-stack.js';
import { SupervisedApp } from './supervised-app.js';
import { LOCAL_DIR, localEncryptionKeys, localPath } from './local-state.js';
import { assertPortsFree, NeededPort } from './ports.js';
import { failureText } from './failure-text.js';
import { keepCredentials } from './credentials.js';
import { PushDemo } from './push-demo.js';
import { DemoOffersApi } from './demo-api.js';
import { demoBotDefinition } from './demo-bot.js';
import { seedDemo } from './seed-demo.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
const within = (ms: number, p: Promise<unknown> | undefined) => Promise.race([p?.catch(() => undefined), new Promise((r) => setTimeout(r, ms))]);

/**
 * `npm run up`: the whole platform on this machine. Uses DATABASE_URL / REDIS_URL (or REDIS_CLUSTER_NODES) when set, otherwise
 * starts its own Postgres and Redis under .local/; migrates; seeds the hosted demo bot (with the local offers
 * API its http node calls) and the outside echo bot (a webhook); runs a WhatsApp Cloud API
 * sandbox unless WHATSAPP_API_BASE_URL is set (it reports each message delivered, then read, to the
 * gateway's status webhook); runs a loopback FCM (and Google token endpoint) unless FCM_API_BASE_URL is set, with a
 * demo device; runs gateway, worker, push service and bot runtime until Ctrl-C, restarting one that
 * crashes (SupervisedApp).
 *
 * Every port it needs is checked first: a busy one stops it before anything starts, naming the port and
 * the variable that moves it. The banner comes once the gateway answers, and the credentials come last
 * (kept in .local/credentials); .local/stack.json tells the CLI this stack's settings.
 */
async function main() {
  const port = Number(process.env.PORT ?? 3000);
  let pg: LocalPostgres | undefined;
  let redis: LocalRedis | undefined;
  let sandbox: WhatsAppCloudSandbox | undefined;
  let echoBot: EchoBot | undefined;
  let demoApi: DemoOffersApi | undefined;
  let pushDemo: PushDemo | undefined;
  let apps: SupervisedApp[] = [];
  let stopping = false;

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('\nstopping…');
    await Promise.all(apps.map((app) => app.stop()));
    await sandbox?.close();
    await echoBot?.close();
    await demoApi?.close();
    await pushDemo?.close();
    // Postgres and Redis last, in groups of their own (a terminal's Ctrl-C reaches `up` alone): the apps' shutdown
    // still records what their running jobs did. One that does not stop in time must not hold `up` up.
    await within(5_000, redis?.stop());
    await within(5_000, pg?.stop());
    say('stopped.');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  // The apps, Redis and Postgres run in process groups of their own: a closed terminal must stop them through `up` too.
  process.on('SIGHUP', () => void shutdown(0));

  try {
    const env0 = process.env;
    const host = env0.HOST ?? '127.0.0.1';
    const portOf = (variable: string, fallback: number) => Number(env0[variable] ?? fallback);
    const needed: NeededPort[] = [
      { port, host, what: 'the gateway', variable: 'PORT' },
      { port: portOf('WORKER_HEALTH_PORT', 3001), host, what: "the channel worker's /health", variable: 'WORKER_HEALTH_PORT' },
      { port: portOf('PUSH_SERVICE_HEALTH_PORT', 3002), host, what: "the push service's /health", variable: 'PUSH_SERVICE_HEALTH_PORT' },
      { port: portOf('BOT_RUNTIME_HEALTH_PORT', 3003), host, what: "the bot runtime's /health", variable: 'BOT_RUNTIME_HEALTH_PORT' },
      { port: portOf('DEMO_API_PORT', 3300), host: '127.0.0.1', what: "the demo bot's offers API", variable: 'DEMO_API_PORT' },
      ...(env0.DATABASE_URL ? [] : [{ port: portOf('LOCAL_PG_PORT', 54329), host: '127.0.0.1', what: 'the local Postgres', variable: 'LOCAL_PG_PORT' }]),
      ...(env0.REDIS_URL || env0.REDIS_CLUSTER_NODES ? [] : [{ port: portOf('LOCAL_REDIS_PORT', 63799), host: '127.0.0.1', what: 'the local Redis', variable: 'LOCAL_REDIS_PORT' }]),
      ...(env0.WHATSAPP_API_BASE_URL ? [] : [{ port: portOf('WHATSAPP_SANDBOX_PORT', 3100), host: '127.0.0.1', what: 'the WhatsApp Cloud API sandbox', variable: 'WHATSAPP_SANDBOX_PORT' }]),
      ...(env0.ECHO_BOT === 'off' ? [] : [{ port: portOf('ECHO_BOT_PORT', 3200), host: '0.0.0.0', what: 'the echo bot', variable: 'ECHO_BOT_PORT' }]),
      ...(env0.FCM_API_BASE_URL
        ? []
        : [
            { port: portOf('FCM_SANDBOX_PORT', 3400), host: '127.0.0.1', what: 'the FCM sandbox', variable: 'FCM_SANDBOX_PORT' },
            { port: portOf('GOOGLE_OAUTH_SANDBOX_PORT', 3401), host: '127.0.0.1', what: "the sandbox's Google token endpoint", variable: 'GOOGLE_OAUTH_SANDBOX_PORT' },
          ]),
    ];
    await assertPortsFree(needed);

    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      pg = await startLocalPostgres({ dataDir: localPath('postgres'), port: Number(process.env.LOCAL_PG_PORT ?? 54329), persistent: true, ownProcessGroup: true });
      databaseUrl = await pg.createDatabase('platform');
      say(`postgres: ${databaseUrl.replace(/:[^:@]*@/, ':***@')} (data in .local/postgres)`);
    }
    const clusterNodes = process.env.REDIS_CLUSTER_NODES;
    let redisUrl = process.env.REDIS_URL;
    if (!redisUrl && !clusterNodes) {
      redis = await startLocalRedis({ dataDir: localPath('redis'), port: Number(process.env.LOCAL_REDIS_PORT ?? 63799), ownProcessGroup: true });
      redisUrl = redis.url;
      say(`redis: ${redisUrl} (AOF in .local/redis)`);
    }
    await migrate(databaseUrl, join(process.cwd(), 'prisma', 'migrations'), (line) => say(`migrate: ${line}`));

    let whatsappBase = process.env.WHATSAPP_API_BASE_URL;
    if (!whatsappBase) {
      sandbox = new WhatsAppCloudSandbox((line) => say(`[whatsapp-sandbox] ${line}`));
      whatsappBase = `${await sandbox.listen(Number(process.env.WHATSAPP_SANDBOX_PORT ?? 3100))}/v21.0`;
      say(`whatsapp sandbox: ${whatsappBase} (set WHATSAPP_API_BASE_URL=https://graph.facebook.com/v21.0 to send for real)`);
    }

    let fcmSettings: Record<string, string> = {};
    if (!process.env.FCM_API_BASE_URL) {
      pushDemo = new PushDemo(say);
      fcmSettings = await pushDemo.listen(Number(process.env.FCM_SANDBOX_PORT ?? 3400), Number(process.env.GOOGLE_OAUTH_SANDBOX_PORT ?? 3401));
      say(`fcm sandbox: ${fcmSettings.FCM_API_BASE_URL} (set FCM_API_BASE_URL=https://fcm.googleapis.com and save a real service account to send for real)`);
    }

    const keysFromFile = !process.env.ENCRYPTION_KEYS;
    const env: Record<string, string> = {
      ...fcmSettings,
      DATABASE_URL: databaseUrl,
      ...(clusterNodes ? { REDIS_CLUSTER_NODES: clusterNodes } : { REDIS_URL: redisUrl! }),
      ENCRYPTION_KEYS: process.env.ENCRYPTION_KEYS ?? localEncryptionKeys(),
      WHATSAPP_API_BASE_URL: whatsappBase,
      PORT: String(port),
      HOST: process.env.HOST ?? '127.0.0.1',
      // A local run posts to receivers on this machine (http, loopback): development settings, off by default elsewhere.
      WEBHOOK_ALLOW_HTTP: process.env.WEBHOOK_ALLOW_HTTP ?? 'true',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES ?? 'true',
      // Hosted bots' http nodes may call loopback services here (the demo's offers API); off by default elsewhere.
      BOT_HTTP_ALLOW_PRIVATE_ADDRESSES: process.env.BOT_HTTP_ALLOW_PRIVATE_ADDRESSES ?? 'true',
    };
    if (sandbox) {
      // The sandbox signs its status webhooks with a secret of this run, as Meta signs with the app secret.
      env.WHATSAPP_WEBHOOK_VERIFY_TOKEN = randomBytes(16).toString('hex');
      env.WHATSAPP_APP_SECRET = randomBytes(16).toString('hex');
      const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
      sandbox.postStatusesTo({ url: `http://${host}:${port}/webhooks/whatsapp`, appSecret: env.WHATSAPP_APP_SECRET });
    }
    // The outside echo bot (a loopback webhook) is a bot of its own; ECHO_BOT=off leaves it out.
    const echoPort = Number(process.env.ECHO_BOT_PORT ?? 3200);
    const echoOn = process.env.ECHO_BOT !== 'off';
    if (echoOn) env.WEBHOOK_ALLOW_HTTP = 'true';
    // The outside API of the hosted demo's http node, on loopback (WEBHOOK_ALLOW_PRIVATE_ADDRESSES lets the local stack reach it).
    demoApi = new DemoOffersApi((line) => say(`[offers-api] ${line}`));
    const demoApiUrl = await demoApi.listen(Number(process.env.DEMO_API_PORT ?? 3300));
    const demo = await seedDemo(env, {
      definition: demoBotDefinition(demoApiUrl),
      secrets: { DEMO_API_TOKEN: demoApi.token },
      echoBotUrl: echoOn ? `http://127.0.0.1:${echoPort}/webhook` : undefined,
      wabaId: sandbox ? SANDBOX_WABA_ID : process.env.WHATSAPP_WABA_ID,
    });
    // A crashed app is started again; one that keeps crashing stops `up` with exit code 1.
    const giveUp = () => void shutdown(1);
    apps = [
      new SupervisedApp('gateway', 'dist/apps/gateway/src/main.js', env, say, giveUp),
      new SupervisedApp('channel-worker', 'dist/apps/channel-worker/src/main.js', env, say, giveUp),
      new SupervisedApp('push-service', 'dist/apps/push-service/src/main.js', env, say, giveUp),
      new SupervisedApp('bot-runtime', 'dist/apps/bot-runtime/src/main.js', env, say, giveUp),
    ].filter((app) => app.start());
    writeLocalStack(env, keysFromFile, LOCAL_DIR);

    const base = `http://${env.HOST}:${port}`;
    // The banner only once the gateway answers: a gateway that cannot start never sits under a "ready" banner.
    await gatewayAnswers(base, () => stopping);
    if (pushDemo) await pushDemo.provision(base, demo.botId, demo.admin, demo.apiKey);
    // The apps' start-up lines (and the provisioning requests' lines) come asynchronously: let them arrive before the banner.
    await quietFor(apps, 400, 5_000);
    if (demo.echo) {
      echoBot = new EchoBot({ apiBaseUrl: base, botId: demo.echo.botId, apiKey: demo.echo.apiKey, log: (line) => say(`[echo-bot] ${line}`) }, demo.echo.webhookSecret);
      await echoBot.server.listen(echoPort);
    }
    const body = JSON.stringify({
      userDetails: { number: '+919876543210' },
      notification: {
        templateId: demo.templateId,
        type: 'whatsapp',
        sender: `+${demo.senderNumber}`,
        // The synced demo template has a greeting placeholder, one per card, and a quick reply and a URL button per card.
        params: demo.synced
          ? {
              bodyParameters: ['Ana'],
              cards: [1, 2, 3].map((i) => ({
                media: { mediaLink: `https://picsum.photos/seed/card${i}/600/400` },
                bodyParameters: [`${i}0%`],
                buttons: [{ payload: `more-like-${i}` }, { urlSuffix: `sku-${i}` }],
              })),
            }
          : { cards: [1, 2, 3].map((i) => ({ media: { mediaLink: `https://picsum.photos/seed/card${i}/600/400` } })) },
      },
    });
    say('');
    say(`demo bot:  ${demo.botId} (hosted: definition version ${demo.version}, docs/bots.md)`);
    say('trigger the demo carousel ($API_KEY: printed below, and in .local/credentials):');
    say(`curl -s -X POST '${base}/api/engagements/notifications/v2/push?bot=${demo.botId}' \\`);
    say(`  -H "x-api-key: $API_KEY" -H 'content-type: application/json' \\`);
    say(`  -d '${body}'`);
    say('then read its status:');
    say(`curl -s ${base}/v1/messages/<msgId> -H "authorization: Bearer $API_KEY"`);
    if (pushDemo) {
      say(`send a push to the demo device (the FCM sandbox prints it as [fcm-sandbox] delivered…; docs/push-notifications.md):`);
      say(`curl -s -X POST '${base}/v1/bots/${demo.botId}/notifications' -H "authorization: Bearer $API_KEY" \\`);
      say(`  -H 'content-type: application/json' -d '{"title":"Hello","body":"From npm run up","userIds":["demo_user_1"],"journeySlug":"offers"}'`);
    }
    const chatUrl = (botId: string, payload: object, user: string) =>
      `${base}/web/bot?botId=${botId}&version=2&enableSpeech=true#ymAuthenticationToken=${user}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    say('chat with the hosted demo bot in a browser (the hosted chat page the SDK opens; its journey starts at once):');
    say(chatUrl(demo.botId, { userName: 'Ada' }, 'demo_user_1'));
    say('the same bot opened on its offers journey (a push tap carrying journeySlug sends this payload):');
    say(chatUrl(demo.botId, { userName: 'Ada', JourneySlug: 'offers' }, 'demo_user_2'));
    if (echoBot && demo.echo) {
      say(`chat with the echo bot, an outside bot on a webhook (bot ${demo.echo.botId}, docs/conversations.md):`);
      say(chatUrl(demo.echo.botId, { userName: 'Ada' }, 'demo_user_1'));
    }
    say(`OpenAPI: ${base}/docs   health: ${base}/health   the CLI (npm run cli) finds this stack by itself. Ctrl-C stops everything.`);
    // Last, so they are on screen when start-up ends; kept in .local/credentials too.
    const file = keepCredentials({ consoleUrl: `${base}/console/`, email: demo.admin.email, password: demo.admin.password, botId: demo.botId, apiKey: demo.apiKey });
    say('');
    say(`console:   ${base}/console/`);
    say(`sign in as ${demo.admin.email}`);
    say(`password   ${demo.admin.password}`);
    say(`API_KEY=${demo.apiKey}`);
    say(`(new ones each run, shown once here and kept in ${file}, mode 0600)`);
    say('');
  } catch (err) {
    process.stderr.write(`local stack failed to start: ${failureText(err)}\n`);
    await shutdown(1);
  }
}

/** Resolves once the gateway's /health answers (any status: it listens); throws when `up` is stopping or after 90 s. */
async function gatewayAnswers(base: string, stopping: () => boolean): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!stopping()) {
    const answered = await fetch(`${base}/health`).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`the gateway did not answer at ${base} within 90 s (its lines above say why)`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('stopped before the gateway answered');
}

/** Resolves once no app has written for `quietMs` (or after `maxMs`). */
async function quietFor(apps: SupervisedApp[], quietMs: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline && apps.some((a) => Date.now() - a.lastOutputAt < quietMs)) await new Promise((r) => setTimeout(r, 100));
}

void main();
