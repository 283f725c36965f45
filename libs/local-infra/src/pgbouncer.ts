import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { waitForPort } from './wait-for-port.js';

export interface LocalPgBouncer {
  /** URL of `database` through the pooler (any database of the server is reachable: `databaseUrl(name)`). */
  url: string;
  port: number;
  databaseUrl(name: string): string;
  stop(): Promise<void>;
}

export interface PgBouncerOptions {
  dataDir: string;
  /** The Postgres server behind it, as a URL with user and password (the pooler logs in with them). */
  serverUrl: string;
  poolMode?: 'session' | 'transaction' | 'statement';
  /** Server connections per database and user pair. */
  defaultPoolSize?: number;
  maxClientConn?: number;
  port?: number;
}

/** Installs Debian's pgbouncer when it is missing (the scripts run as root on Debian). */
export function ensurePgBouncerInstalled(): string {
  const found = spawnSync('sh', ['-c', 'command -v pgbouncer || ls /usr/sbin/pgbouncer 2>/dev/null'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  if (found) return found;
  process.stderr.write('pgbouncer not found: installing Debian package pgbouncer with apt-get\n');
  const r = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('Could not install pgbouncer (Debian package pgbouncer)');
  return '/usr/sbin/pgbouncer';
}

/**
 * Starts PgBouncer on 127.0.0.1 in front of a running Postgres: every database of the server, clients
 * authenticated with SCRAM against the same user and password as the server's (auth_file), transaction
 * pooling unless told otherwise. PgBouncer refuses to run as root, so as root it runs as the `postgres`
 * system user that startLocalPostgres creates.
 */
export async function startLocalPgBouncer(opts: PgBouncerOptions): Promise<LocalPgBouncer> {
  const bin = ensurePgBouncerInstalled();
  const server = new URL(opts.serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const port = opts.port ?? (await freePort());
  mkdirSync(opts.dataDir, { recursive: true });
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  writeFileSync(join(opts.dataDir, 'userlist.txt'), `${quote(user)} ${quote(password)}\n`, { mode: 0o600 });
  writeFileSync(
    join(opts.dataDir, 'pgbouncer.ini'),
    [
      '[databases]',
      // The fallback entry: a client's database name is passed through to the same server.
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${join(opts.dataDir, 'userlist.txt')}`,
      `pool_mode = ${opts.poolMode ?? 'transaction'}`,
      `default_pool_size = ${opts.defaultPoolSize ?? 20}`,
      `max_client_conn = ${opts.maxClientConn ?? 1000}`,
      // pg sends none of these unless asked, but drivers and tools that do must not be refused.
      'ignore_startup_parameters = extra_float_digits,options,search_path',
      `logfile = ${join(opts.dataDir, 'pgbouncer.log')}`,
      `pidfile = ${join(opts.dataDir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const pg = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (pg.status !== 0) throw new Error('pgbouncer refuses to run as root and there is no postgres system user to run it as');
    const uid = Number(pg.stdout.trim());
    for (const f of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(join(opts.dataDir, f), uid, Number(gid.stdout.trim()));
    chmodSync(opts.dataDir, 0o700);
  }
  const [cmd, args] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, join(opts.dataDir, 'pgbouncer.ini')]] : [bin, [join(opts.dataDir, 'pgbouncer.ini')]];
  const proc: ChildProcess = spawn(cmd, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  await Promise.race([
    waitForPort(port, true),
    exited.then(() => {
      throw new Error(`pgbouncer exited at start; see ${join(opts.dataDir, 'pgbouncer.log')}`);
    }),
  ]);
  const databaseUrl = (name: string) => `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${name}`;
  return {
    url: databaseUrl(server.pathname.slice(1) || 'postgres'),
    port,
    databaseUrl,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM'); // runuser passes it on; pgbouncer's SIGTERM shuts down at once
      await exited;
    },
  };
}
