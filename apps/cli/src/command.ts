import type { INestApplicationContext } from '@nestjs/common';
import { UsageError } from './usage.error.js';

export type CommandArgs = Record<string, string | boolean | undefined>;

/** One operator command, e.g. `npm run cli -- key create --bot <id> --name ci`. */
export interface CliCommand {
  /** Words that select the command, e.g. "key create". */
  name: string;
  summary: string;
  /** Options it takes; `required` ones are checked before run() is called. */
  options: Record<string, { description: string; required?: boolean; boolean?: boolean }>;
  /**
   * Resolves to the exit code (0 when it resolves to nothing). `out` is the command's answer (stdout);
   * `warn` is for what the operator should know without it being the answer or a failure (stderr).
   */
  run(app: INestApplicationContext, args: CommandArgs, out: (line: string) => void, warn: (line: string) => void): Promise<void | number>;
}

export function requireString(args: CommandArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/**
 * An id option (bots, keys, senders: UUIDs), checked before it reaches the database: a placeholder
 * copied from the docs (`<bot-id>`) or a cut-off id is named as such instead of failing in Prisma.
 */
export function requireId(args: CommandArgs, name: string, from = 'its list command'): string {
  const value = requireString(args, name);
  if (!UUID.test(value)) {
    const placeholder = /^[<[{$]|^(bot|key|sender|template|id)[-_]?(id)?$/i.test(value);
    throw new UsageError(`--${name} ${placeholder ? `is a placeholder (${value})` : `"${value}" is not an id`}: give the UUID from ${from}`);
  }
  return value.toLowerCase();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
