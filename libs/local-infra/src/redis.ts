import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './ports.js';

export interface LocalRedis {
  url: string;
  port: number;
  /** Stops the server (the port stays reserved for start()). */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data (AOF). */
  start(): Promise<void>;
}

/** Installs Debian's redis-server when it is missing (the scripts run as root on Debian). */
export function ensureRedisServerInstalled(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  process.stderr.write('redis-server not found: installing Debian package redis-server with apt-get\n');
  const r = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server'], {
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('Could not install redis-server; install it or set REDIS_URL');
  return 'redis-server';
}

/** Starts redis-server on 127.0.0.1 with AOF (appendfsync always) so an acknowledged job survives a crash. */
export async function startLocalRedis(opts: {
  dataDir: string;
  port?: number;
  /** More redis-server arguments. */
  args?: string[];
  /**
   * A process group of its own, out of reach of a terminal's Ctrl-C: the caller stops it, after the
   * apps that need Redis to shut down cleanly.
   */
  ownProcessGroup?: boolean;
}): Promise<LocalRedis> {
  const bin = ensureRedisServerInstalled();
  const port = opts.port ?? (await freePort());
  mkdirSync(opts.dataDir, { recursive: true });
  let proc: ChildProcess | undefined;

  const start = async () => {
    proc = spawn(
      bin,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        opts.dataDir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--databases',
        '1024',
        '--protected-mode',
        'no',
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
        ...(opts.args ?? []),
      ],
      { stdio: 'ignore', detached: opts.ownProcessGroup ?? false },
    );
    await waitForPort(port, true);
  };
  const stop = async () => {
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc!.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
    await waitForPort(port, false);
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop };
}

export async function waitForPort(port: number, open: boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (isOpen === open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis on port ${port} did not ${open ? 'start' : 'stop'} within ${timeoutMs} ms`);
}
