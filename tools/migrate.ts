import { join } from 'node:path';
import { runMain } from '@platform/common';
import { ConfigError } from '@platform/config';
import { migrate } from '@platform/database';

/** `npm run migrate`: applies pending prisma/migrations to DATABASE_URL (safe to run from many processes at once). */
runMain(async () => {
  const url = process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError('Invalid configuration:\n  - DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const result = await migrate(url!, join(process.cwd(), 'prisma', 'migrations'), (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    result.applied.length === 0
      ? `database is up to date (${result.alreadyApplied} migrations applied before)\n`
      : `applied ${result.applied.length} migration(s)\n`,
  );
});
