import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { CliModule } from './cli.module.js';
import { CliCommand } from './command.js';
import { UsageError } from './usage.error.js';
import { commands } from './commands/index.js';
import { cliErrorText } from './cli-error-text.js';
import { discoverLocalStack } from './local-stack.js';

/**
 * Runs one command line; returns the exit code. `env` overrides process.env (tests). Run in a checkout
 * where `npm run up` ran, without DATABASE_URL, it uses the local stack's settings (local-stack.ts).
 * Every failure is one line, `error: …`, never a stack (cli-error-text.ts). `note` takes what goes to
 * stderr: the local stack's settings, and a command's warnings (a bot definition's, for instance).
 */
export async function runCli(argv: string[], out: (line: string) => void, env: Record<string, string> = {}, note: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<number> {
  const command = findCommand(argv);
  if (!command) {
    out(usage());
    return argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' ? 0 : 2;
  }
  const words = command.name.split(' ').length;
  let args: Record<string, string | boolean | undefined>;
  try {
    args = parseArgs({
      args: argv.slice(words),
      options: Object.fromEntries(Object.entries(command.options).map(([k, o]) => [k, { type: o.boolean ? ('boolean' as const) : ('string' as const) }])),
      strict: true,
    }).values as Record<string, string | boolean | undefined>;
    for (const [k, o] of Object.entries(command.options)) if (o.required && args[k] === undefined) throw new UsageError(`--${k} is required`);
  } catch (err) {
    out(`${(err as Error).message}\n\n${describe(command)}`);
    return 2;
  }
  const local = discoverLocalStack({ ...process.env, ...env });
  if (local) note(`(the local stack's settings: ${local.from.join(', ')})`);
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | undefined;
  try {
    // Nest's own logger stays silent: a failure is the one line below, not Nest's stack trace.
    app = await NestFactory.createApplicationContext(CliModule.forRoot({ ...local?.env, ...env }), { logger: false, abortOnError: false });
    return (await command.run(app, args, out, note)) ?? 0;
  } catch (err) {
    const { text, code } = cliErrorText(err);
    out(`error: ${text}`);
    return code;
  } finally {
    await app?.close().catch(() => undefined);
  }
}

function findCommand(argv: string[]): CliCommand | undefined {
  return commands.find((c) => c.name.split(' ').every((word, i) => argv[i] === word));
}

function describe(c: CliCommand): string {
  const opts = Object.entries(c.options).map(([k, o]) => `    --${k}${o.required ? ' (required)' : ''}  ${o.description}`);
  return [`  ${c.name}  ${c.summary}`, ...opts].join('\n');
}

function usage(): string {
  return ['usage: npm run cli -- <command> [--option value ...]', '', 'commands:', ...commands.map(describe)].join('\n');
}
