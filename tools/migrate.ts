import { join } from 'node:path';
import { runMain } from '@platform/common';
import { ConfigError } from '@platform/config';
import { migrate } from '@platform/database';

/**
 * `npm run migrate`: applies pending prisma/migrations (safe to run from many processes at once). It
 * connects to DATABASE_DIRECT_URL when set, else DATABASE_URL: the migrator holds a session advisory
 * lock across its statements, which a pooler in transaction mode would spread over server connections.
 */
runMain(async () => {
  const name = process.env.DATABASE_DIRECT_URL ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL';
  const url = process.env[name];
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError(`Invalid configuration:\n  - ${name} must be a postgres:// or postgresql:// URL`);
  }
  const result = await migrate(url!, join(process.cwd(), 'prisma', 'migrations'), (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(result.applied.length === 0 ? `database is up to date (${result.alreadyApplied} migrations applied before)\n` : `applied ${result.applied.length} migration(s)\n`);
});
