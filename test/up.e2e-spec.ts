import { ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@platform/local-infra';
import { TEST_ENCRYPTION_KEYS, until } from '@platform/testing';
import { reconnectingClients } from './reconnecting-clients.js';
import { RawStream, eventually, postJson, startSession } from './sdk-support.js';
import { runCli } from '../apps/cli/src/run-cli.js';

/** The line `up` ends its start-up with: the credentials are above it, and nothing of start-up below it. */
const LAST_LINE = /\(new ones each run, shown once here and kept in (\S+), mode 0600\)\n/;

/** The env of an `up` of a test's own: free ports for everything, its own .local/. */
async function upEnv(localDir: string, overrides: Record<string, string> = {}): Promise<Record<string, string | undefined>> {
  return {
    ...process.env,
    DATABASE_URL: undefined,
    LOCAL_PG_PORT: String(await freePort()),
    REDIS_URL: undefined,
    REDIS_CLUSTER_NODES: undefined,
    LOCAL_REDIS_PORT: String(await freePort()),
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    WHATSAPP_SANDBOX_PORT: String(await freePort()),
    ECHO_BOT_PORT: String(await freePort()),
    DEMO_API_PORT: String(await freePort()),
    FCM_SANDBOX_PORT: String(await freePort()),
    GOOGLE_OAUTH_SANDBOX_PORT: String(await freePort()),
    WORKER_HEALTH_PORT: String(await freePort()),
    PUSH_SERVICE_HEALTH_PORT: String(await freePort()),
    BOT_RUNTIME_HEALTH_PORT: String(await freePort()),
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    FCM_API_BASE_URL: undefined,
    LOG_LEVEL: undefined,
    OPENAPI_UI: 'false',
    UP_LOCAL_DIR: localDir,
    ...overrides,
  };
}

/** A busy port stops `up` before anything starts: no banner, a line naming the port and the variable that moves it, exit code 1. */
describe('npm run up on a busy port', () => {
  const localDir = mkdtempSync(join(tmpdir(), 'up-busy-'));
  afterAll(() => rmSync(localDir, { recursive: true, force: true }));

  async function upOnBusy(variable: string, host = '127.0.0.1'): Promise<{ port: number; output: string; code: number | null }> {
    const holder = createServer();
    const port = await new Promise<number>((resolve) => holder.listen(0, host, () => resolve((holder.address() as { port: number }).port)));
    try {
      const up = spawn(process.execPath, ['dist/tools/up/main.js'], { env: await upEnv(localDir, { [variable]: String(port) }), stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      up.stdout!.on('data', (c: Buffer) => (output += c));
      up.stderr!.on('data', (c: Buffer) => (output += c));
      // Generous: on a loaded machine loading the built code alone can take tens of seconds.
      const timer = setTimeout(() => up.kill('SIGKILL'), 100_000);
      const code = await new Promise<number | null>((resolve) => up.once('exit', resolve));
      clearTimeout(timer);
      return { port, output, code };
    } finally {
      holder.close();
    }
  }

  it.each([
    ['PORT', 'the gateway'],
    ['FCM_SANDBOX_PORT', 'the FCM sandbox'],
    ['LOCAL_PG_PORT', 'the local Postgres'],
  ])(
    'names the port held on %s and stops before the banner',
    async (variable, what) => {
      const { port, output, code } = await upOnBusy(variable);
      expect(output).toContain(`local stack failed to start: port ${port} (${what}) is in use by another process: set ${variable} to another port`);
      expect(output).not.toMatch(/undefined|demo bot:|Ctrl-C|password|postgres:|started \(pid/);
      expect(code).toBe(1);
    },
    120_000,
  );
});

/**
 * `npm run up` (its built entry, dist/tools/up/main.js) with its own Postgres and Redis (in a .local/ of the test's):
 * the printed chat URLs answer (the hosted demo bot runs its journey, http node included; the outside echo
 * bot answers on its webhook); it restarts an app that crashes, saying so, and a Ctrl-C (SIGINT to its whole process group, as a
 * terminal sends it) stops every app within its own bound while an SDK WebSocket and a console event
 * stream are open (their clients coming straight back) and each app holds a connection never used, and
 * Postgres answers until the last app has stopped (a campaign's planner runs meanwhile).
 */
describe('npm run up', () => {
  let up: ChildProcess;
  let output = '';
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  let base: string;
  let port: number;
  let workerPort: number;
  let runtimePort: number;
  let pushPort: number;

  // Its .local/ in a folder of the test's own, not the developer's.
  const localDir = mkdtempSync(join(tmpdir(), 'up-local-'));

  /** Waits until the gateway answers its health check 200 (a refused connection counts as not yet). */
  const gatewayHealthy = (what: string) =>
    until(
      () =>
        fetch(`${base}/health`).then(
          (r) => (r.status === 200 ? true : undefined),
          () => undefined,
        ),
      60_000,
      what,
    );

  /** Starts `up` on free ports; true once it printed its last start-up line, false when it stopped first on a port taken meanwhile. */
  async function startUp(): Promise<boolean> {
    [port, workerPort, pushPort, runtimePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    base = `http://127.0.0.1:${port}`;
    const env = await upEnv(localDir, { PORT: String(port), WORKER_HEALTH_PORT: String(workerPort), PUSH_SERVICE_HEALTH_PORT: String(pushPort), BOT_RUNTIME_HEALTH_PORT: String(runtimePort) });
    output = '';
    // Detached: a process group of its own, which the test signals as a terminal would.
    up = spawn(process.execPath, ['dist/tools/up/main.js'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    up.stdout!.on('data', (c: Buffer) => (output += c));
    up.stderr!.on('data', (c: Buffer) => (output += c));
    exited = new Promise((resolve) => up.once('exit', (code, signal) => resolve({ code, signal })));
    // Until its last start-up line, or until it stops without one.
    const ended = () => up.exitCode !== null || up.signalCode !== null;
    const started = await until(async () => (LAST_LINE.test(output) ? true : ended() ? false : undefined), 180_000, 'up started').catch((err: Error) => {
      throw new Error(`${err.message}; its output so far:\n${output}`);
    });
    if (started) return true;
    // Another test's process may take a port between freePort() and up's own check of it.
    if (/is in use by another process/.test(output)) return false;
    throw new Error(`up stopped (exit code ${up.exitCode}, signal ${up.signalCode}) before it had started; its output:\n${output}`);
  }

  beforeAll(async () => {
    let started = false;
    for (let attempt = 1; !started && attempt <= 3; attempt++) started = await startUp();
    expect(started).toBe(true);
    await gatewayHealthy('the gateway healthy');
  }, 420_000);

  afterAll(async () => {
    if (up.exitCode === null && up.signalCode === null) {
      // Its own way out first (it stops its Postgres and Redis), then by force.
      // Connections opened and left unused, as a browser opens them ahead of need (or a monitor leaves them), to each app.
      const silent = [port, workerPort, pushPort, runtimePort].map((p) => connect(p, '127.0.0.1').on('error', () => undefined));
      await Promise.all(silent.map((s) => new Promise((r) => s.once('connect', r))));

      process.kill(-up.pid!, 'SIGINT');
      const timer = setTimeout(() => process.kill(-up.pid!, 'SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(localDir, { recursive: true, force: true });
  }, 120_000);

  const pidOf = (name: string) => Number([...output.matchAll(new RegExp(`\\[${name}\\] started \\(pid (\\d+)\\)`, 'g'))].at(-1)?.[1]);

  /** Opens a printed chat URL as the chat page does: its session (token and payload from the fragment) and its event stream. */
  async function openChat(url: string) {
    const chat = new URL(url);
    const botId = chat.searchParams.get('botId')!;
    const fragment = new URLSearchParams(chat.hash.slice(1));
    const token = fragment.get('ymAuthenticationToken')!;
    const { sessionId, streamUrl } = await startSession(base, botId, token, JSON.parse(fragment.get('payload')!));
    const stream = await RawStream.connect(streamUrl, token);
    /** The bot's chat messages so far (conversation.message events), and the app events. */
    const messages = () => stream.events.filter((e) => e.event.data.code === 'conversation.message').map((e) => (JSON.parse(e.event.data.data) as { content: Record<string, unknown> }).content);
    const appEvents = () => stream.events.filter((e) => e.event.data.code !== 'conversation.message').map((e) => e.event);
    const say = (text: string, payload?: string) => postJson(`${base}/v1/bots/${botId}/sessions/${sessionId}/messages`, { text, payload }, { authorization: `Bearer ${token}` });
    return { stream, messages, appEvents, say };
  }

  it("the printed chat URL of the hosted demo bot runs its journey at once, goes on when a question's retries run out and greets the user by name again on a restart; the echo bot answers on its own", async () => {
    const urls = [...output.matchAll(/^(http:\/\/\S+\/web\/bot\?\S+)$/gm)].map((m) => m[1]);
    expect(urls).toHaveLength(3); // hosted, hosted on its offers journey, echo
    // The chat page's header names each bot (its profile, seeded once).
    const nameOf = async (url: string) => ((await (await fetch(`${base}/v1/bots/${new URL(url).searchParams.get('botId')}/profile`)).json()) as { displayName: string | null }).displayName;
    expect([await nameOf(urls[0]), await nameOf(urls[2])]).toEqual(['Demo bot', 'Echo bot']);
    const hosted = await openChat(urls[0]);
    try {
      // The sdk.md function node parsed the payload: the greeting names the user, then the menu question waits.
      await eventually(() => hosted.messages().find((m) => m.text === 'What would you like to try?'), 30_000, `the demo's menu; messages: ${JSON.stringify(hosted.messages())}`);
      expect(hosted.messages()[0].text).toMatch(/^Hi Ada! I am the demo bot, hosted on the platform/);
      expect((await hosted.say('See offers', 'offers')).status).toBe(202);
      // The http node reached the local offers API with the secret token; a carousel of its answer, then the function node's app event.
      const carousel = await eventually(() => hosted.messages().find((m) => Array.isArray(m.cards)), 30_000, `the offers carousel; messages: ${JSON.stringify(hosted.messages())}`);
      expect((carousel.cards as Array<{ title: string }>).map((c) => c.title)).toEqual(['Summer hat', 'Beach towel', 'Sunglasses']);
      const shown = await eventually(() => hosted.appEvents().find((e) => e.data.code === 'offers.shown'), 10_000, 'the offers.shown app event');
      expect(shown).toEqual({ code: 'sendReactNativeEvent', data: { code: 'offers.shown', data: JSON.stringify({ count: 3 }) } });
      expect(output).toContain('[offers-api] GET /offers\n');

      const texts = () => hosted.messages().map((m) => String(m.text ?? (m.image as { caption?: string } | undefined)?.caption ?? ''));
      const count = (text: string) => texts().filter((t) => t.startsWith(text)).length;
      const seen = (text: string, times = 1) => eventually(() => count(text) >= times, 30_000, `${times} × "${text}"; messages: ${JSON.stringify(texts())}`);
      await seen('Shall I send these offers to you?');
      await hosted.say('ada@example.com');
      // A question whose retries run out goes on by its invalid edge: never the apology of a failed bot.
      await seen('How do you like this demo, from 1 to 5?');
      for (const [i, answer] of ['See offers', 'שלום, מה נשמע?', 'ada@example.com'].entries()) {
        await hosted.say(answer);
        if (i < 2) await seen('A number from 1 to 5, please.', i + 1);
      }
      await seen('No rating then, that is fine. Write anything to start again.');
      // Started again by a message, the welcome journey still reads the payload the chat page opened the session with.
      await hosted.say('again');
      await seen('What would you like to try?', 2);
      expect(texts().filter((t) => t.startsWith('Hi '))).toEqual([expect.stringMatching(/^Hi Ada! /), expect.stringMatching(/^Hi Ada! /)]);
      for (const [i, answer] of ['maybe', 'something else', 'all of them'].entries()) {
        await hosted.say(answer);
        if (i < 2) await seen('Please tap one of the buttons.', i + 1);
      }
      await seen('I still could not tell which one you meant, so here is a picture.');
      await seen('A picture for Ada, from the hosted demo bot');
      await seen('How do you like this demo, from 1 to 5?', 2);
      expect(texts().filter((t) => t.startsWith('Sorry'))).toEqual([]);
    } finally {
      await hosted.stream.close();
    }

    const echo = await openChat(urls[2]);
    try {
      await eventually(() => echo.messages().find((m) => String(m.text).startsWith('Hello! I am the echo bot')), 30_000, 'the echo bot greeting');
    } finally {
      await echo.stream.close();
    }
  }, 120_000);

  it('prints the credentials last and keeps them in .local/credentials (0600); logs stay quiet', async () => {
    const startup = output.slice(0, LAST_LINE.exec(output)!.index + LAST_LINE.exec(output)![0].length);
    const tail = startup.trimEnd().split('\n').slice(-5);
    expect(tail[0]).toMatch(/^console: {3}http:\/\/127\.0\.0\.1:\d+\/console\/$/);
    expect(tail[1]).toMatch(/^sign in as demo-admin-\w+@example\.com$/);
    expect(tail[2]).toMatch(/^password {3}\S{20,}$/);
    expect(tail[3]).toMatch(/^API_KEY=bpk_\S+$/);
    const file = LAST_LINE.exec(output)![1];
    expect(file).toBe(join(localDir, 'credentials'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = readFileSync(file, 'utf8');
    expect(kept).toContain(`password=${/^password\s+(\S+)$/m.exec(startup)![1]}`);
    expect(kept).toContain(`api_key=${/^API_KEY=(\S+)$/m.exec(startup)![1]}`);

    // No route mapping or module loading lines (LOG_LEVEL=debug shows them), and one line per request.
    expect(output).not.toMatch(/Mapped \{|RoutesResolver|dependencies initialized/);
    const before = output.length;
    expect((await fetch(`${base}/health?probe=1`)).status).toBe(200);
    await eventually(() => (output.slice(before).includes('GET /health 200') ? true : undefined), 5_000, 'the request line');
    await new Promise((r) => setTimeout(r, 300));
    const window = output.slice(before);
    expect(window.split('\n').filter((l) => l.includes('[gateway]') && l.includes('/health'))).toEqual([expect.stringMatching(/^\S+ INFO: \[gateway\] GET \/health 200 \d+ ms$/)]);
    expect(window).not.toMatch(/incoming request|request completed|reqId|probe=1/); // Fastify's two records, their bindings, the query string
  });

  it('leads GET / to the console, and keeps /metrics off the public port', async () => {
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console/');
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect(await (await fetch(`http://127.0.0.1:${pushPort}/metrics`)).text()).toContain('push_');
  });

  it('runs a loopback FCM with a demo device: a push sent through the API is seen arriving', async () => {
    const botId = /demo bot:\s+(\S+)/.exec(output)![1];
    const apiKey = /^API_KEY=(\S+)$/m.exec(output)![1];
    const curl = /-d '(\{"title":"Hello".*\})'$/m.exec(output)![1];
    const sent = await fetch(`${base}/v1/bots/${botId}/notifications`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: curl });
    expect(sent.status).toBe(202);
    await until(
      async () => (/\[fcm-sandbox\] delivered to the demo device \(demo_user_1\): "Hello" – "From npm run up"/.test(output) ? true : undefined),
      30_000,
      `the push delivered; output: ${output.slice(-2000)}`,
    );
  }, 120_000);

  it("lets the CLI find this stack's settings by itself (.local/stack.json and .local/encryption-keys)", async () => {
    const botId = /demo bot:\s+(\S+)/.exec(output)![1];
    const saved = process.env.UP_LOCAL_DIR;
    process.env.UP_LOCAL_DIR = localDir;
    try {
      const lines: string[] = [];
      const notes: string[] = [];
      // Nothing given: no DATABASE_URL, no ENCRYPTION_KEYS (up had them from its env here: stack.json says so, and the CLI is told the keys).
      expect(
        await runCli(
          ['bot', 'list'],
          (l) => lines.push(l),
          { ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS },
          (l) => notes.push(l),
        ),
      ).toBe(0);
      expect(lines.join('\n')).toContain(botId);
      expect(notes).toEqual([`(the local stack's settings: ${join(localDir, 'stack.json')})`]);
      expect(statSync(join(localDir, 'stack.json')).mode & 0o777).toBe(0o600);
    } finally {
      if (saved === undefined) delete process.env.UP_LOCAL_DIR;
      else process.env.UP_LOCAL_DIR = saved;
    }
  });

  it('restarts an app that crashed, with a line saying so, and it answers again', async () => {
    const first = pidOf('gateway');
    expect(first).toBeGreaterThan(0);
    process.kill(first, 'SIGKILL');
    await until(async () => (output.includes('[gateway] exited with SIGKILL; restarting (1 of 5)') ? true : undefined), 30_000, 'the restart line');
    await until(async () => (pidOf('gateway') !== first ? true : undefined), 30_000, 'a new gateway process');
    await gatewayHealthy('the restarted gateway healthy');
  }, 120_000);

  /**
   * A campaign of the synced demo carousel, running with its three recipients in quiet hours: its planner
   * reads Postgres every half second until the campaign is stopped.
   */
  async function campaignInQuietHours(botId: string, apiKey: string): Promise<void> {
    const trigger = JSON.parse(/-d '(\{"userDetails".*\})'$/m.exec(output)![1]) as { notification: { templateId: string; sender: string } };
    const call = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${base}/v1/bots/${botId}/campaigns${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const answer = (await res.json()) as Record<string, unknown>;
      if (!res.ok) throw new Error(`${method} campaigns${path} answered ${res.status}: ${JSON.stringify(answer)}`);
      return answer;
    };
    const hour = new Date().getUTCHours();
    const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const card = (i: number) => ({ mediaLink: 'img', bodyParameters: [{ value: `${i}0%` }], buttons: [{ payload: { value: `more-${i}` } }, { urlSuffix: { value: `sku-${i}` } }] });
    const { id } = (await call('POST', '', {
      name: 'Ctrl-C',
      templateId: trigger.notification.templateId,
      sender: trigger.notification.sender,
      mapping: { number: 'number', bodyParameters: [{ value: 'Ana' }], cards: [1, 2, 3].map(card) },
      schedule: { timeZone: 'UTC', quietHours: { from: hh(hour - 1), to: hh(hour + 2) } },
    })) as { id: string };
    await call('PUT', `/${id}/audience`, { rows: [1, 2, 3].map((i) => ({ number: `+91980000000${i}`, img: `https://cdn.example.com/${i}.jpg` })) });
    await call('POST', `/${id}/start`, { acknowledgeTierLimit: true });
    await eventually(
      async () => {
        const p = (await (await fetch(`${base}/v1/bots/${botId}/campaigns/${id}/progress`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as {
          status: string;
          recipients: { inQuietHours: number };
        };
        return p.status === 'running' && p.recipients.inQuietHours === 3 ? true : undefined;
      },
      30_000,
      'the campaign running in quiet hours',
    );
  }

  it('Ctrl-C stops every app within its bound, with an SDK WebSocket and a console event stream open, and Postgres after them', async () => {
    const botId = /demo bot:\s+(\S+)/.exec(output)![1];
    const email = /sign in as (\S+)/.exec(output)![1];
    const password = /password\s+(\S+)/.exec(output)![1];
    const { streamUrl } = await startSession(base, botId, 'ctrl_c_user');
    const socket = await RawStream.connect(streamUrl, 'ctrl_c_user');
    const login = await postJson(`${base}/v1/auth/login`, { email, password });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const ticket = await fetch(`${base}/v1/bots/${botId}/messages/stream-ticket`, { method: 'POST', headers: { authorization: `Bearer ${access_token}` } });
    expect(ticket.status).toBe(201);
    const { url } = (await ticket.json()) as { url: string };
    await new Promise<void>((resolve, reject) => {
      const req = request(`${base}${url}`, { headers: { accept: 'text/event-stream' } }, (res) => {
        res.resume();
        if (res.statusCode === 200) resolve();
        else reject(new Error(`event stream answered ${res.statusCode}`));
      });
      req.on('error', () => undefined); // ended by the shutdown
      req.end();
    });

    // Clients that come straight back when their stream ends, as the chat page's SDK and the console do.
    const returning = reconnectingClients(base, streamUrl, 'returning_user', `${base}/v1/bots/${botId}/messages/stream-ticket`, access_token);
    await new Promise((r) => setTimeout(r, 1_000));

    await campaignInQuietHours(botId, /^API_KEY=(\S+)$/m.exec(output)![1]);
    const pgPort = Number(/^postgres: postgresql:\/\/\S+@127\.0\.0\.1:(\d+)\//m.exec(output)![1]);
    const db = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${pgPort}/platform` });
    db.on('error', () => undefined); // ended by the shutdown
    await db.connect();
    const apps = ['gateway', 'channel-worker', 'push-service', 'bot-runtime'].map(pidOf);
    const appsRunning = () =>
      apps.some((pid) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      });

    // Connections opened and left unused, as a browser opens them ahead of need (or a monitor leaves them), to each app.
    const silent = [port, workerPort, pushPort, runtimePort].map((p) => connect(p, '127.0.0.1').on('error', () => undefined));
    await Promise.all(silent.map((s) => new Promise((r) => s.once('connect', r))));

    process.kill(-up.pid!, 'SIGINT');
    // Postgres answers for as long as an app runs: their shutdown still records what they did.
    let answered = 0;
    let outage: string | undefined;
    while (appsRunning() && !outage) {
      const failed = await db.query('SELECT 1').then(
        () => undefined,
        (err: Error) => err,
      );
      if (failed && appsRunning()) outage = `Postgres stopped answering (${failed.message}) while an app still ran, after ${answered} answers`;
      if (!failed) answered++;
      await new Promise((r) => setTimeout(r, 20));
    }
    const exit = await exited;
    await db.end().catch(() => undefined);
    returning.stop();
    for (const s of silent) s.destroy();
    await socket.closed;
    expect(outage).toBeUndefined();
    expect(output).toContain('stopped.');
    // Each app ended by itself on the signal: none overran its bound (runMain's line, up's kill) or exited otherwise.
    expect(output.slice(output.lastIndexOf('stopping…'))).not.toMatch(/shutdown did not finish|did not stop within|exited with/);
    // The campaign's planner (and every other job) met Postgres up to the end.
    expect(output.slice(output.lastIndexOf('stopping…'))).not.toMatch(/database is unavailable|it will retry/i);
    expect(answered).toBeGreaterThan(0);
    expect(exit).toEqual({ code: 0, signal: null });
    // Stopped by `up` all the same: nothing is left on its port.
    await expect(new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${pgPort}/platform` }).connect()).rejects.toThrow();
  }, 120_000);
});
