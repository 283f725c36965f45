import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { freePort } from './ports.js';
import { killAndWait, waitForPort } from './wait-for-port.js';

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
    proc = await spawnRedisServer(bin, port, ['--dir', opts.dataDir, '--databases', '1024', ...(opts.args ?? [])], { detached: opts.ownProcessGroup ?? false });
  };
  const stop = async () => {
    await killAndWait(proc, 'SIGTERM');
    await waitForPort(port, false);
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop };
}

/**
 * Starts redis-server in the foreground on 127.0.0.1:`port`, with AOF (appendfsync always) and no RDB
 * snapshots, and resolves once the port accepts connections; `args` adds to or overrides these.
 */
export async function spawnRedisServer(bin: string, port: number, args: string[], options: { detached?: boolean } = {}): Promise<ChildProcess> {
  const base = ['--port', String(port), '--bind', '127.0.0.1', '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--protected-mode', 'no', '--daemonize', 'no', '--loglevel', 'warning'];
  const proc = spawn(bin, [...base, ...args], { stdio: 'ignore', detached: options.detached ?? false });
  try {
    await waitForPort(port, true);
  } catch (err) {
    await killAndWait(proc, 'SIGKILL');
    throw err;
  }
  return proc;
}
