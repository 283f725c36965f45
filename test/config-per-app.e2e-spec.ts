import { ChildProcess, spawn } from 'node:child_process';
import { freePort } from '@platform/local-infra';
import { WhatsAppCloudSandbox } from '@platform/sandbox';
import { triggerCarousel, until, waitForMessageStatus } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** Values only the gateway reads, each malformed: token lifetimes, rate limits, SDK sessions. */
const GATEWAY_ONLY_MALFORMED = {
  AUTH_ACCESS_TOKEN_TTL_SECONDS: 'forever',
  AUTH_RATE_LIMIT_PER_IP: '0',
  SDK_SESSION_TTL_SECONDS: '5',
};

interface Run {
  code: number | null;
  output: string;
}

function run(script: string, args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  const done = new Promise<Run>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  return { child, done };
}

/**
 * Each built app validates only the variables it reads: a value malformed for the gateway stops the
 * gateway, naming it, while the channel worker, the push service and the CLI run with it.
 */
describe('configuration: each app validates what it reads', () => {
  const cloud = new WhatsAppCloudSandbox();
  const stack = useStack({ cloud, seed: true });
  const children: ChildProcess[] = [];
  stack.defer(() => Promise.all(children.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => (c.once('exit', r), c.kill('SIGKILL')))))));

  it('the gateway refuses to start, naming every malformed variable it reads, without a stack', async () => {
    const { done } = run('dist/apps/gateway/src/main.js', [], { ...stack.env, ...GATEWAY_ONLY_MALFORMED });
    const { code, output } = await done;
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:');
    expect(output).toContain('AUTH_ACCESS_TOKEN_TTL_SECONDS must be an integer (seconds, 60..86400)');
    expect(output).toContain('AUTH_RATE_LIMIT_PER_IP must be at least 1');
    expect(output).toContain('SDK_SESSION_TTL_SECONDS must be at least 60');
    expect(output).not.toMatch(/\n\s+at /);
  }, 120_000);

  it('the channel worker starts with them and sends a carousel', async () => {
    const { child } = run('dist/apps/channel-worker/src/main.js', [], { ...stack.env, ...GATEWAY_ONLY_MALFORMED });
    children.push(child);
    const msgId = await triggerCarousel(stack.url, stack.seed);
    await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent'], 40_000);
    expect(cloud.messages).toHaveLength(1);
  }, 120_000);

  it('the push service starts with them and answers /health', async () => {
    const port = await freePort();
    const { child, done } = run('dist/apps/push-service/src/main.js', [], { ...stack.env, ...GATEWAY_ONLY_MALFORMED, PUSH_SERVICE_HEALTH_PORT: String(port) });
    children.push(child);
    let exited: Run | undefined;
    void done.then((r) => (exited = r));
    const status = await until(
      async () => {
        if (exited) throw new Error(`push service exited with ${exited.code}: ${exited.output}`);
        // Under load the first checks of Postgres and Redis may time out (503): wait for a 200.
        return fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => (r.status === 200 ? r.status : undefined),
          () => undefined,
        );
      },
      40_000,
      'the push service answering /health',
    );
    expect(status).toBe(200);
  }, 120_000);

  it('the CLI runs with them', async () => {
    const { code, output } = await run('dist/apps/cli/src/main.js', ['bot', 'list'], { ...stack.env, ...GATEWAY_ONLY_MALFORMED }).done;
    expect(output).toContain(stack.seed.botId);
    expect(code).toBe(0);
  }, 120_000);
});
