import { createServer, type Server, type Socket } from 'node:net';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { DatabaseUnavailableError } from './database-unavailable.error.js';
import { PrismaClient } from './generated/client.js';
import { PostgresPool, toDatabaseOutage } from './postgres-pool.js';

/** pg's error for an ErrorResponse of Postgres with `code`. */
function answer(code: string): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError('from the server', 0, 'error'), { code, severity: 'ERROR' });
}

describe('toDatabaseOutage', () => {
  it('passes on what Postgres answered', () => {
    for (const code of ['23505', '42601', '40001', '28P01']) {
      const err = answer(code);
      expect(toDatabaseOutage(err)).toBe(err);
    }
  });

  it('turns answers that say the server cannot serve us, and every failure to ask it, into DatabaseUnavailableError', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', errno: -111, syscall: 'connect' });
    for (const err of [answer('57P01'), answer('08006'), answer('53300'), refused, new Error('Connection terminated unexpectedly'), new Error('Query read timeout')]) {
      const outage = toDatabaseOutage(err);
      expect(outage).toBeInstanceOf(DatabaseUnavailableError);
      expect((outage as Error).cause).toBe(err);
    }
  });

  it('leaves our own bugs (bad arguments) and errors already converted as they are', () => {
    const bug = new TypeError('Client was passed a null or undefined query');
    const outage = new DatabaseUnavailableError('x');
    expect(toDatabaseOutage(bug)).toBe(bug);
    expect(toDatabaseOutage(outage)).toBe(outage);
  });
});

describe('PostgresPool', () => {
  let closedPort: number;
  let silent: Server; // accepts connections and never answers
  let silentPort: number;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => silent.close(resolve));
  });

  const pool = (port: number) => {
    const p = new PostgresPool({ connectionString: `postgres://u:p@127.0.0.1:${port}/db`, connectionTimeoutMillis: 300 });
    p.on('error', () => undefined);
    return p;
  };

  it('rejects statements and checkouts with DatabaseUnavailableError when Postgres refuses connections or never answers', async () => {
    for (const port of [closedPort, silentPort]) {
      const p = pool(port);
      await expect(p.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnavailableError);
      await expect(p.connect()).rejects.toBeInstanceOf(DatabaseUnavailableError);
      const viaCallback = await new Promise((resolve) => p.connect((err: Error | undefined) => resolve(err)));
      expect(viaCallback).toBeInstanceOf(DatabaseUnavailableError);
      await p.end();
    }
  });

  it('reaches Prisma queries and transactions through the driver adapter as the same error', async () => {
    const p = pool(closedPort);
    const db = new PrismaClient({ adapter: new PrismaPg(p) });
    await expect(db.bot.findFirst()).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await expect(db.$transaction(async (tx) => tx.bot.findFirst())).rejects.toBeInstanceOf(DatabaseUnavailableError);
    await db.$disconnect();
    await p.end().catch(() => undefined);
  });

  const live = process.env.TEST_DATABASE_URL;
  (live ? it : it.skip)('passes on what a live Postgres answers, and a connection it ends mid-session as an outage', async () => {
    const p = new PostgresPool({ connectionString: live, max: 1 });
    p.on('error', () => undefined);
    const err = await p.query('SELEC 1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(pg.DatabaseError);
    expect((err as pg.DatabaseError).code).toBe('42601');
    const client = await p.connect();
    const ended = await client.query('SELECT pg_terminate_backend(pg_backend_pid())').catch((e: unknown) => e);
    client.release(true);
    expect(ended).toBeInstanceOf(DatabaseUnavailableError);
    expect(((ended as Error).cause as pg.DatabaseError).code).toBe('57P01');
    await p.end();
  });
});
