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
  /** Resolves to the exit code (0 when it resolves to nothing). */
  run(app: INestApplicationContext, args: CommandArgs, out: (line: string) => void): Promise<void | number>;
}

export function requireString(args: CommandArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}
