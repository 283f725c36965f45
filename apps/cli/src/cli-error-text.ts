import { StartupError } from '@platform/common';
import { DatabaseUnavailableError } from '@platform/database';
import { UsageError } from './usage.error.js';

/** What a duplicate of each model means to an operator (Prisma's P2002 names the model). */
const DUPLICATES: Record<string, string> = {
  ChannelSender: 'a sender with this number already exists for this bot',
  Template: 'a template with this name and language already exists for this bot',
  User: 'a user with this e-mail already exists',
  OAuthClient: 'an OAuth client with this id already exists',
  BotSecret: 'this bot already has a secret with this name',
};

/**
 * One line for an error a command ran into, and its exit code: 2 for a mistake in the command line, 1
 * otherwise. Operators saw Prisma's raw stack traces here (a duplicate sender, a malformed key id);
 * what they need is what was wrong, so the stack is never printed.
 */
export function cliErrorText(err: unknown): { text: string; code: number } {
  if (err instanceof UsageError) return { text: err.message, code: 2 };
  if (err instanceof StartupError) {
    // A configuration error lists one variable a line: one line here, the variables after each other.
    const lines = err.message
      .split('\n')
      .map((l) => l.trim().replace(/^- /, ''))
      .filter(Boolean);
    let text = lines.length > 1 ? `${lines[0].replace(/:$/, '')}: ${lines.slice(1).join('; ')}` : (lines[0] ?? err.name);
    if (/DATABASE_URL is required/.test(text)) text += ' (in a checkout, run `npm run up` once: the CLI then finds its settings)';
    return { text, code: 1 };
  }
  if (findInChain(err, (e) => e instanceof DatabaseUnavailableError) || findInChain(err, (e) => /ECONNREFUSED|ENOTFOUND|Can't reach database server/.test(String((e as Error).message ?? ''))))
    return { text: 'cannot reach the database at DATABASE_URL (is `npm run up` running, or is DATABASE_URL right?)', code: 1 };
  const prisma = err as { code?: unknown; meta?: { modelName?: string; target?: unknown; driverAdapterError?: { cause?: { kind?: string } } }; message?: string };
  if (prisma?.code === 'P2002' || prisma?.meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation') {
    const model = prisma.meta?.modelName ?? '';
    return { text: DUPLICATES[model] ?? `a ${model ? `${model} ` : 'record '}with these values already exists`, code: 1 };
  }
  const message = String(prisma?.message ?? err);
  if (prisma?.code === 'P2023' || /invalid input syntax for type uuid|Error creating UUID|InvalidInputValue/i.test(message))
    return { text: 'an id given is not a valid id (ids are UUIDs such as 0b6a1c2e-…; copy one from a list command)', code: 2 };
  if (prisma?.code === 'P2003' || /Foreign key constraint/i.test(message)) return { text: 'a record this refers to (the bot, for example) does not exist', code: 1 };
  if (prisma?.code === 'P2025') return { text: 'not found', code: 1 };
  // Anything else: its last non-empty line (Prisma puts the reason after the call site), never the stack.
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return { text: lines.at(-1) ?? (err instanceof Error ? err.name : 'unknown error'), code: 1 };
}

function findInChain(err: unknown, test: (e: unknown) => boolean): boolean {
  for (let e = err, i = 0; e && i < 8; e = (e as { cause?: unknown }).cause, i++) if (test(e)) return true;
  return false;
}
