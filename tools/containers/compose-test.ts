import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DockerComposeEnvironment, StartedDockerComposeEnvironment, Wait } from 'testcontainers';
import { freePort } from '@platform/local-infra';
import { WhatsAppCloudSandbox } from '@platform/sandbox';

/**
 * The compose stack in containers, driven through testcontainers' DockerComposeEnvironment: migrate,
 * healthy services, three channel workers; a trigger reaches the WhatsApp fake (on the host); one
 * worker is killed (SIGKILL) while the queue drains and every message still ends sent. Run by
 * tools/containers/test-compose.sh, which builds the images first.
 */
const PROJECT = 'platformcomposetest';
const WORKERS = 3;
const DRAIN_MESSAGES = 300;
const SENDER = '+15550001111';
// Paces the drain (messages/s across workers), so that a worker can be killed while it runs.
const THROUGHPUT = 20;

const results: Array<{ name: string; ok: boolean; detail: string }> = [];
function check(name: string, ok: boolean, detail = ''): void {
  results.push({ name, ok, detail });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}\n`);
}

/** `docker compose` when the CLI has it, else the standalone docker-compose (Debian's package). */
function composeExecutable(): { standalone: true } | undefined {
  return spawnSync('docker', ['compose', 'version']).status === 0 ? undefined : { standalone: true };
}

function docker(...args: string[]): string {
  const r = spawnSync('docker', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`docker ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** The container names compose gave the service (`project-svc-1` with compose v2, `project_svc_1` with v1). */
function containersOf(service: string): string[] {
  return docker('ps', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--filter', `label=com.docker.compose.service=${service}`, '--format', '{{.Names}}')
    .split('\n')
    .filter(Boolean)
    .sort();
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main(): Promise<number> {
  const root = process.cwd();
  const cloud = new WhatsAppCloudSandbox();
  // Every interface: the containers reach it through the host's address on the Docker bridge.
  const cloudPort = Number(new URL(await cloud.listen(0, '0.0.0.0')).port);
  const gatewayPort = await freePort();
  const encryptionKeys = `compose1:${Buffer.alloc(32, 7).toString('base64')}`;
  let stack: StartedDockerComposeEnvironment | undefined;
  const files = ['docker-compose.yml', join('tools', 'containers', 'compose.test.yml')];
  const environment = {
    PLATFORM_IMAGE: process.env.PLATFORM_IMAGE ?? 'bot-platform:compose-test',
    POSTGRES_IMAGE: process.env.POSTGRES_IMAGE ?? 'platform-postgres:local',
    REDIS_IMAGE: process.env.REDIS_IMAGE ?? 'platform-redis:local',
    ENCRYPTION_KEYS: encryptionKeys,
    WHATSAPP_API_BASE_URL: `http://host.docker.internal:${cloudPort}/v21.0`,
    GATEWAY_PORT: String(gatewayPort),
    LOG_LEVEL: 'warn',
  };
  const executable = composeExecutable();
  const compose = new DockerComposeEnvironment(root, files)
    .withProjectName(PROJECT)
    .withEnvironment(environment)
    .withClientOptions({ executable, commandOptions: ['--scale', `channel-worker=${WORKERS}`] })
    // The apps' own healthchecks (GET /health: Postgres and Redis reached) decide when they are up.
    .withDefaultWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(600_000)
    // This script tears the stack down itself: testcontainers' reaper is an image from Docker Hub.
    .withAutoCleanup(false);
  try {
    process.stdout.write(`compose up (migrate, postgres, redis, gateway, push-service, bot-runtime, ${WORKERS} channel workers)\n`);
    stack = await compose.up();
    const migrate = docker('ps', '-a', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--filter', 'label=com.docker.compose.service=migrate', '--format', '{{.Status}}');
    check('migrate ran and exited 0', /^Exited \(0\)/.test(migrate), migrate);
    const workers = containersOf('channel-worker');
    check(`${WORKERS} channel workers healthy`, workers.length === WORKERS && workers.every((w) => docker('inspect', '-f', '{{.State.Health.Status}}', w) === 'healthy'), workers.join(', '));
    for (const service of ['gateway', 'channel-worker', 'push-service', 'bot-runtime']) {
      const uid = docker('exec', containersOf(service)[0], 'id', '-u');
      check(`${service} runs as a non-root user`, uid !== '0', `uid ${uid}`);
    }

    // A bot, a sender, a template and an API key, made with the operator CLI inside the gateway's container.
    const gateway = containersOf('gateway')[0];
    const cli = (...args: string[]) => docker('exec', '-e', 'WHATSAPP_ACCESS_TOKEN=EAAG-compose-test', gateway, 'node', 'dist/apps/cli/src/main.js', ...args);
    const botId = /bot created: (\S+)/.exec(cli('bot', 'create', '--name', 'compose test'))![1];
    cli('sender', 'create', '--bot', botId, '--number', SENDER, '--phone-number-id', '106500000001', '--throughput', String(THROUGHPUT));
    const templateId = /template created: (\S+)/.exec(cli('template', 'create', '--bot', botId, '--name', 'summer_carousel', '--language', 'en_US', '--cards', '3'))![1];
    const apiKey = cli('key', 'create', '--bot', botId, '--name', 'compose').split('\n').pop()!.trim();

    const base = `http://127.0.0.1:${gatewayPort}`;
    // The first administrator, as docs/deployment.md shows it: created in the gateway's container, then signing in through the gateway.
    const password = cli('admin', 'create', '--bot', botId, '--email', 'first-admin@example.com').split('\n').pop()!.trim();
    const login = await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'first-admin@example.com', password }) });
    check('the first administrator, created with the CLI in a container, signs in', login.status === 200, `login answered ${login.status}`);
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    check('GET / leads to the console', root.status === 302 && root.headers.get('location') === '/console/', `${root.status} ${root.headers.get('location')}`);
    // A 5xx means nothing was done (the gateway says so): a client tries again, as this one does.
    const trigger = async (number: string, tries = 10): Promise<string> => {
      const res = await fetch(`${base}/api/engagements/notifications/v2/push?bot=${botId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({
          userDetails: { number },
          notification: {
            templateId,
            type: 'whatsapp',
            sender: SENDER,
            params: { cards: [0, 1, 2].map((i) => ({ media: { mediaLink: `https://cdn.example.com/card-${i}.jpg` } })) },
          },
        }),
      });
      if (res.status >= 500 && tries > 1) {
        await new Promise((r) => setTimeout(r, 1000));
        return trigger(number, tries - 1);
      }
      if (res.status !== 200) throw new Error(`trigger answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { msgId: string }).msgId;
    };
    const statusOf = async (msgId: string): Promise<string> =>
      ((await (await fetch(`${base}/v1/messages/${msgId}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { status: string }).status;

    const first = await trigger('+919876543210');
    const firstStatus = await until('the first message sent', 60_000, async () => ((await statusOf(first)) === 'sent' ? 'sent' : undefined)).catch((e: Error) => e.message);
    check('a trigger through the gateway ends sent at the WhatsApp fake', firstStatus === 'sent' && cloud.messages.length === 1, `${firstStatus}, fake received ${cloud.messages.length}`);

    // The drain: distinct recipients (Meta paces each pair), one worker killed a third of the way in.
    const numbers = Array.from({ length: DRAIN_MESSAGES }, (_, i) => `+91900000${String(i).padStart(4, '0')}`);
    const ids: string[] = [];
    for (let i = 0; i < numbers.length; i += 10) ids.push(...(await Promise.all(numbers.slice(i, i + 10).map((n) => trigger(n)))));
    await until('a third of the drain sent', 120_000, async () => (cloud.messages.length > 1 + DRAIN_MESSAGES / 3 ? true : undefined));
    const victim = workers[0];
    docker('kill', victim);
    const atKill = cloud.messages.length - 1;
    process.stdout.write(`killed ${victim} (SIGKILL) with ${atKill} of ${DRAIN_MESSAGES} sent\n`);
    const pending = new Set(ids);
    await until('every drained message sent', 240_000, async () => {
      for (const id of [...pending]) if ((await statusOf(id)) === 'sent') pending.delete(id);
      return pending.size === 0 ? true : undefined;
    }).catch(() => undefined);
    const received = cloud.messages.slice(1).map((m) => (m.body as { to: string }).to);
    const distinct = new Set(received);
    check(`all ${DRAIN_MESSAGES} messages ended sent after a worker was killed mid-drain`, pending.size === 0, `${pending.size} not sent`);
    check(
      'the WhatsApp fake received every recipient',
      numbers.every((n) => distinct.has(n.slice(1))),
      `${distinct.size} distinct of ${DRAIN_MESSAGES}`,
    );
    process.stdout.write(`duplicates (a send the killed worker made but could not record, repeated by another): ${received.length - distinct.size}\n`);
  } catch (err) {
    check('the compose stack ran', false, err instanceof Error ? err.message : String(err));
    if (stack) process.stdout.write(spawnSync('docker', ['ps', '-a', '--filter', `label=com.docker.compose.project=${PROJECT}`], { encoding: 'utf8' }).stdout);
  } finally {
    process.stdout.write('compose down (volumes removed)\n');
    if (stack) await stack.down({ removeVolumes: true, timeout: 10_000 }).catch((e: Error) => process.stderr.write(`compose down: ${e.message}\n`));
    // A failed up leaves what it started (testcontainers' own clean-up is not certain): down by project name.
    const [command, ...composeArgs] = executable ? ['docker-compose'] : ['docker', 'compose'];
    spawnSync(command, [...composeArgs, '-p', PROJECT, ...files.flatMap((f) => ['-f', f]), 'down', '-v', '--timeout', '10'], {
      env: { ...process.env, ...environment },
      stdio: 'ignore',
    });
    await cloud.close();
  }
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(`compose: ${results.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`test:compose failed: ${err instanceof Error ? err.stack : err}\n`);
    process.exit(1);
  },
);
