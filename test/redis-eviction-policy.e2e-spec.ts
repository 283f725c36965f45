import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRedis, startLocalRedis } from '@platform/local-infra';
import { createTestEnv, until } from '@platform/testing';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startGateway(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['dist/apps/gateway/src/main.js'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  return { child, output: () => output, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/**
 * A Redis that may evict keys could drop queued jobs: the built gateway refuses to start against one
 * (maxmemory-policy allkeys-lru), naming the setting; REDIS_ALLOW_EVICTION=true lets it start with a
 * warning; a Redis that refuses CONFIG is reported as unchecked, not fatal; AOF is reported.
 */
describe('start-up check of the Redis maxmemory-policy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eviction-'));
  let evicting: LocalRedis;
  let noConfig: LocalRedis;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    evicting = await startLocalRedis({ dataDir: join(dir, 'lru'), args: ['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru'] });
    noConfig = await startLocalRedis({ dataDir: join(dir, 'no-config'), args: ['--rename-command', 'CONFIG', ''] });
    // The env of a single Redis, whatever Redis the suite runs on.
    env = { ...(await createTestEnv()), REDIS_CLUSTER_NODES: '', REDIS_KEY_PREFIX: '', LOG_LEVEL: 'info' };
  });

  afterAll(async () => {
    await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((r) => (c.once('exit', r), c.kill('SIGKILL'))))));
    await evicting?.stop();
    await noConfig?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (overrides: Record<string, string>) => {
    const started = startGateway({ ...env, ...overrides });
    children.push(started.child);
    return started;
  };

  it('refuses to start against a Redis that evicts, naming the setting and the way out', async () => {
    const gateway = run({ REDIS_URL: evicting.url });
    expect(await gateway.exited).toBe(1);
    expect(gateway.output()).toContain(`Redis 127.0.0.1:${evicting.port} has maxmemory-policy allkeys-lru`);
    expect(gateway.output()).toContain('Set maxmemory-policy to noeviction');
    expect(gateway.output()).toContain('REDIS_ALLOW_EVICTION=true');
    expect(gateway.output()).not.toMatch(/\n\s+at /); // a message, not a stack
  }, 120_000);

  it('starts with REDIS_ALLOW_EVICTION=true, warning that jobs may be evicted, and reports AOF', async () => {
    const gateway = run({ REDIS_URL: evicting.url, REDIS_ALLOW_EVICTION: 'true' });
    await until(async () => (/may evict queued jobs/.test(gateway.output()) && /listening/i.test(gateway.output())) || undefined, 60_000, 'the warning and listening');
    expect(gateway.output()).toContain('maxmemory-policy allkeys-lru');
    expect(gateway.output()).toContain('AOF on (appendfsync always)');
    expect(gateway.child.exitCode).toBeNull();
  }, 120_000);

  it('starts against a Redis that refuses CONFIG, saying the policy could not be checked', async () => {
    const gateway = run({ REDIS_URL: noConfig.url });
    await until(async () => (/refused CONFIG GET/.test(gateway.output()) && /listening/i.test(gateway.output())) || undefined, 60_000, 'the notice and listening');
    expect(gateway.output()).toContain('could not check that its maxmemory-policy is noeviction');
    expect(gateway.child.exitCode).toBeNull();
  }, 120_000);
});
