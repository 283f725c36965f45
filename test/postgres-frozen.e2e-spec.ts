import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '@platform/database';
import { LocalPostgres, startLocalPostgres } from '@platform/local-infra';
import { OUTAGE_DATABASE_TIMEOUTS, createTestEnv } from '@platform/testing';
import { AppProcess, startAppProcess } from './app-process.js';

const DB_DOWN = { message: 'The database is unavailable; nothing was done. Retry later.', status: 'error' };

/** The postmaster and every process it started (the backends holding the gateway's connections). */
function postgresProcesses(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent; the command (field 2) may hold spaces, so read after its ')'.
        return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/**
 * A Postgres that holds its connections but answers nothing (every process stopped with SIGSTOP):
 * a read answers 500 naming the database within the 2 s docs/api.md states, instead of waiting on a
 * connection that will never answer. The test's own Postgres: the shared one serves other test files.
 */
describe('a frozen Postgres', () => {
  const dir = mkdtempSync(join(tmpdir(), 'frozen-pg-'));
  let pg: LocalPostgres;
  let gateway: AppProcess;

  beforeAll(async () => {
    pg = await startLocalPostgres({ dataDir: join(dir, 'pg'), persistent: true });
    const databaseUrl = await pg.createDatabase('frozen');
    await migrate(databaseUrl, join(process.cwd(), 'prisma', 'migrations'));
    gateway = await startAppProcess('dist/apps/gateway/src/main.js', await createTestEnv({ DATABASE_URL: databaseUrl, ...OUTAGE_DATABASE_TIMEOUTS }));
  }, 120_000);

  afterAll(async () => {
    await gateway?.kill();
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  const login = () =>
    fetch(`${gateway.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' }) });

  it('answers a read 500 with the database sentence within 2 s', async () => {
    // The read works, over a pooled connection that stays open.
    expect((await login()).status).toBe(401);
    const frozen = postgresProcesses(join(dir, 'pg'));
    try {
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
      const started = Date.now();
      const res = await login();
      const ms = Date.now() - started;
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 500, body: DB_DOWN });
      // 2 s as documented, with a second of tolerance for a loaded host (without a statement timeout it is 5 s).
      expect(ms).toBeLessThan(3_000);
    } finally {
      for (const pid of frozen) process.kill(pid, 'SIGCONT');
    }
    // Thawed, it answers reads again.
    let status = 0;
    for (let i = 0; i < 40 && status !== 401; i++) {
      status = (await login()).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(401);
  }, 120_000);
});
