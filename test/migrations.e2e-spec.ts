import { cpSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrate, readMigrations } from '@platform/database';

/** The offline migrator: ordered, locked, recorded like `prisma migrate deploy`, refusing edited files. */
describe('migrate command', () => {
  const admin = process.env.TEST_DATABASE_URL!;
  let n = 0;

  async function freshDatabase(): Promise<string> {
    const name = `mig_${process.pid}_${Date.now()}_${n++}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE "${name}"`);
    await c.end();
    return admin.replace(/\/[^/]*$/, `/${name}`);
  }

  function migrationsDir(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    for (const [name, sql] of Object.entries(files)) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'migration.sql'), sql);
    }
    return dir;
  }

  async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query<T>(sql)).rows;
    } finally {
      await c.end();
    }
  }

  it('applies the project migrations in order and records them as prisma migrate deploy does', async () => {
    const url = await freshDatabase();
    const dir = join(process.cwd(), 'prisma', 'migrations');
    const result = await migrate(url, dir);
    const files = readMigrations(dir);
    expect(result.applied).toEqual(files.map((f) => f.name));
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date; applied_steps_count: number }>(
      url,
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY started_at, migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count])).toEqual(files.map((f) => [f.name, f.checksum, 1]));
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
    expect(files[0].checksum).toMatch(/^[0-9a-f]{64}$/);
    const tables = await query<{ tablename: string }>(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    expect(tables.map((t) => t.tablename)).toEqual(expect.arrayContaining(['bots', 'api_keys', 'channel_senders', 'templates', 'messages']));
  });

  it("20261204200000_callbacks moves bots' webhook and postback settings and the postback log into the callback tables", async () => {
    const url = await freshDatabase();
    const project = join(process.cwd(), 'prisma', 'migrations');
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    const before = readMigrations(project).filter((m) => m.name < '20261204200000_callbacks');
    for (const m of before) cpSync(join(project, m.name), join(dir, m.name), { recursive: true });
    await migrate(url, dir);
    const [a, b, c, m] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000c', '00000000-0000-4000-8000-0000000000f1'];
    await query(
      url,
      `INSERT INTO bots (id, name, webhook_url, webhook_secret_encrypted, postback_url) VALUES
      ('${a}', 'both', 'https://a.example/hook', 'v1.k.sealed-a', 'https://a.example/pb'),
      ('${b}', 'postbacks only', NULL, 'v1.k.sealed-b', 'https://b.example/pb'),
      ('${c}', 'neither', NULL, NULL, NULL)`,
    );
    await query(
      url,
      `INSERT INTO postbacks (id, bot_id, message_id, status, url, body, attempts, last_status, updated_at) VALUES
      ('${m}.sent', '${a}', '${m}', 'sent', 'https://a.example/pb', '{}', 2, 200, now())`,
    );

    cpSync(join(project, '20261204200000_callbacks'), join(dir, '20261204200000_callbacks'), { recursive: true });
    expect((await migrate(url, dir)).applied).toEqual(['20261204200000_callbacks']);
    expect(await query(url, 'SELECT bot_id, kind, url, failing_since, disabled_at FROM callback_endpoints ORDER BY bot_id, kind')).toEqual([
      { bot_id: a, kind: 'postback', url: 'https://a.example/pb', failing_since: null, disabled_at: null },
      { bot_id: a, kind: 'webhook', url: 'https://a.example/hook', failing_since: null, disabled_at: null },
      { bot_id: b, kind: 'postback', url: 'https://b.example/pb', failing_since: null, disabled_at: null },
    ]);
    expect(await query(url, 'SELECT bot_id, secret_encrypted, previous_secret_encrypted FROM callback_secrets ORDER BY bot_id')).toEqual([
      { bot_id: a, secret_encrypted: 'v1.k.sealed-a', previous_secret_encrypted: null },
      { bot_id: b, secret_encrypted: 'v1.k.sealed-b', previous_secret_encrypted: null },
    ]);
    expect(await query(url, 'SELECT id, bot_id, kind, event, message_id, status, attempts, replays, duplicates FROM callback_deliveries')).toEqual([
      { id: `${m}.sent`, bot_id: a, kind: 'postback', event: 'message.status', message_id: m, status: 'sent', attempts: 2, replays: 0, duplicates: 0 },
    ]);
    const columns = await query<{ column_name: string }>(url, "SELECT column_name FROM information_schema.columns WHERE table_name = 'bots'");
    expect(columns.map((r) => r.column_name)).not.toEqual(expect.arrayContaining(['webhook_url']));
    expect(await query(url, "SELECT to_regclass('postbacks') IS NULL AS gone")).toEqual([{ gone: true }]);
  });

  it("20261225000000_conversation_message_position numbers each conversation's messages on its own, and new ones continue each count", async () => {
    const name = '20261225000000_conversation_message_position';
    const url = await freshDatabase();
    const project = join(process.cwd(), 'prisma', 'migrations');
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    for (const m of readMigrations(project).filter((m) => m.name < name)) cpSync(join(project, m.name), join(dir, m.name), { recursive: true });
    await migrate(url, dir);
    const [bot, a, b] = ['00000000-0000-4000-8000-0000000000b0', '00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
    await query(url, `INSERT INTO bots (id, name) VALUES ('${bot}', 'bot')`);
    await query(url, `INSERT INTO conversations (id, bot_id, channel, user_id, updated_at) VALUES ('${a}', '${bot}', 'web', 'a', now()), ('${b}', '${bot}', 'web', 'b', now())`);
    // Interleaved, as two users' messages arrive: a, a, b, a, b.
    const insert = (conversation: string, text: string) =>
      query(url, `INSERT INTO conversation_messages (id, conversation_id, direction, type, content) VALUES (gen_random_uuid(), '${conversation}', 'inbound', 'text', '{"text":"${text}"}')`);
    for (const [c, text] of [
      [a, 'a1'],
      [a, 'a2'],
      [b, 'b1'],
      [a, 'a3'],
      [b, 'b2'],
    ])
      await insert(c, text);

    cpSync(join(project, name), join(dir, name), { recursive: true });
    expect((await migrate(url, dir)).applied).toEqual([name]);
    // New messages, one of them with the conversation touched in the same statement (as the hosted runtime records its replies).
    await insert(b, 'b3');
    await query(
      url,
      `WITH msgs AS (INSERT INTO conversation_messages (id, conversation_id, direction, type, content, status)
         SELECT gen_random_uuid(), '${a}', 'outbound', 'text', jsonb_build_object('text', t), 'queued' FROM unnest(ARRAY['a4', 'a5']) WITH ORDINALITY AS u(t, ord) ORDER BY ord RETURNING id),
       conv AS (UPDATE conversations SET updated_at = now() WHERE id = '${a}')
       SELECT count(*) FROM msgs`,
    );
    const rows = await query<{ conversation_id: string; text: string; position: number }>(
      url,
      "SELECT conversation_id, content->>'text' AS text, position FROM conversation_messages ORDER BY conversation_id, seq",
    );
    expect(rows.map((r) => [r.text, r.position])).toEqual([
      ['a1', 1],
      ['a2', 2],
      ['a3', 3],
      ['a4', 4],
      ['a5', 5],
      ['b1', 1],
      ['b2', 2],
      ['b3', 3],
    ]);
  });

  it('is a no-op when nothing is pending', async () => {
    const url = await freshDatabase();
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int);' });
    expect((await migrate(url, dir)).applied).toEqual(['001_a']);
    expect(await migrate(url, dir)).toEqual({ applied: [], alreadyApplied: 1 });
    expect(await query(url, 'SELECT count(*)::int AS n FROM _prisma_migrations')).toEqual([{ n: 1 }]);
  });

  it('applies only what is new, in name order', async () => {
    const url = await freshDatabase();
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int);' });
    await migrate(url, dir);
    mkdirSync(join(dir, '003_c'));
    writeFileSync(join(dir, '003_c', 'migration.sql'), 'ALTER TABLE b ADD COLUMN c int;');
    mkdirSync(join(dir, '002_b'));
    writeFileSync(join(dir, '002_b', 'migration.sql'), 'CREATE TABLE b (id int);');
    expect((await migrate(url, dir)).applied).toEqual(['002_b', '003_c']);
  });

  it('refuses to run when an applied file was edited', async () => {
    const url = await freshDatabase();
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int);' });
    await migrate(url, dir);
    writeFileSync(join(dir, '001_a', 'migration.sql'), 'CREATE TABLE a (id bigint);');
    await expect(migrate(url, dir)).rejects.toThrow('Migration 001_a was edited after it was applied');
  });

  it('rolls a failing migration back whole and lets the fixed file run', async () => {
    const url = await freshDatabase();
    const dir = migrationsDir({ '001_a': 'CREATE TABLE a (id int); SELECT * FROM missing_table;' });
    await expect(migrate(url, dir)).rejects.toThrow(/001_a failed/);
    expect(await query(url, "SELECT to_regclass('a') IS NULL AS gone")).toEqual([{ gone: true }]);
    writeFileSync(join(dir, '001_a', 'migration.sql'), 'CREATE TABLE a (id int);');
    expect((await migrate(url, dir)).applied).toEqual(['001_a']);
  });

  it('is safe when several processes migrate at once (advisory lock)', async () => {
    const url = await freshDatabase();
    const dir = migrationsDir({
      '001_a': 'CREATE TABLE a (id int); SELECT pg_sleep(0.3);',
      '002_b': 'CREATE TABLE b (id int);',
    });
    const results = await Promise.all([migrate(url, dir), migrate(url, dir), migrate(url, dir)]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 2]);
    expect(await query(url, 'SELECT count(*)::int AS n FROM _prisma_migrations')).toEqual([{ n: 2 }]);
  });
});
