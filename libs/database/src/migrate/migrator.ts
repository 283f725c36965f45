import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { MigrationError } from './migration.error.js';

/** Arbitrary constant: every migrator of this platform takes the same advisory lock. */
const LOCK_KEY = 727_073_690;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

/** Reads prisma/migrations/<name>/migration.sql in name order, as `prisma migrate deploy` does. */
export function readMigrations(dir: string): MigrationFile[] {
  if (!existsSync(dir)) throw new MigrationError(`Migrations folder ${dir} does not exist`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * Applies pending migrations inside a session advisory lock, recording each in _prisma_migrations
 * with Prisma's columns and checksum (sha256 of the file), so `prisma migrate deploy` can take over.
 */
export async function migrate(databaseUrl: string, dir: string, log: (line: string) => void = () => {}): Promise<MigrateResult> {
  const migrations = readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
    );
    const failed = rows.find((r) => r.finished_at === null);
    if (failed) {
      throw new MigrationError(`Migration ${failed.migration_name} started but did not finish; fix the database and mark it rolled back before migrating again`);
    }
    const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    for (const m of migrations) {
      const checksum = applied.get(m.name);
      if (checksum !== undefined && checksum !== m.checksum) {
        throw new MigrationError(`Migration ${m.name} was edited after it was applied (checksum differs); refusing to run`);
      }
    }
    const pending = migrations.filter((m) => !applied.has(m.name));
    for (const m of pending) {
      const id = randomUUID();
      await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)', [id, m.checksum, m.name]);
      try {
        await client.query('BEGIN');
        await client.query(m.sql);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        // The transaction rolled back whole, so the row is marked rolled back and the fixed file can run again.
        await client.query('UPDATE "_prisma_migrations" SET logs = $2, rolled_back_at = now() WHERE id = $1', [id, String(err)]);
        throw new MigrationError(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
      log(`applied ${m.name}`);
    }
    return { applied: pending.map((m) => m.name), alreadyApplied: migrations.length - pending.length };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await client.end();
  }
}
