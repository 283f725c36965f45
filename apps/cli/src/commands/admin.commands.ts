import type { INestApplicationContext } from '@nestjs/common';
import { UserInputError, UserService, isBotRole } from '@platform/accounts';
import { isUuid } from '@platform/contracts';
import { randomToken } from '@platform/crypto';
import { BotRepository } from '@platform/database';
import { CliCommand, CommandArgs, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

async function requireBot(app: INestApplicationContext, args: CommandArgs): Promise<string> {
  const botId = requireString(args, 'bot');
  if (!isUuid(botId) || !(await app.get(BotRepository).findById(botId))) throw new UsageError(`no bot ${botId}`);
  return botId;
}

function role(args: CommandArgs) {
  const value = typeof args.role === 'string' ? args.role : 'admin';
  if (!isBotRole(value)) throw new UsageError('--role must be admin, developer or viewer');
  return value;
}

export const adminCommands: CliCommand[] = [
  {
    name: 'admin create',
    summary: 'Create a bot administrator (the first one of a bot); prints a generated password once unless --password-env names one',
    options: {
      bot: { description: 'Bot id', required: true },
      email: { description: 'Login e-mail of the administrator', required: true },
      role: { description: 'admin (default), developer or viewer' },
      'password-env': { description: 'Name of an environment variable holding the password (at least 12 characters)' },
    },
    async run(app, args, out) {
      const botId = await requireBot(app, args);
      const users = app.get(UserService);
      const email = requireString(args, 'email');
      const wanted = role(args);
      if (await users.findByEmail(email)) throw new UsageError(`a user ${email} already exists; use "admin role" to give them a role on this bot`);
      const envName = typeof args['password-env'] === 'string' ? args['password-env'] : undefined;
      const given = envName ? process.env[envName] : undefined;
      if (envName && !given) throw new UsageError(`environment variable ${envName} is not set`);
      const password = given ?? randomToken(18);
      try {
        const user = await users.create(email, password);
        await users.setRole(user.id, botId, wanted);
        out(`user ${user.email} (${user.id}) created with role ${wanted} on bot ${botId}`);
      } catch (err) {
        if (err instanceof UserInputError) throw new UsageError(err.message);
        throw err;
      }
      if (!given) {
        out('Generated password (shown once, store it now):');
        out(password);
      }
    },
  },
  {
    name: 'admin role',
    summary: 'Give an existing user a role on a bot (or change it)',
    options: {
      bot: { description: 'Bot id', required: true },
      email: { description: 'E-mail of the user', required: true },
      role: { description: 'admin, developer or viewer', required: true },
    },
    async run(app, args, out) {
      const botId = await requireBot(app, args);
      const users = app.get(UserService);
      const user = await users.findByEmail(requireString(args, 'email'));
      if (!user) throw new UsageError(`no user ${requireString(args, 'email')}`);
      const wanted = role(args);
      await users.setRole(user.id, botId, wanted);
      out(`${user.email} now has role ${wanted} on bot ${botId}`);
    },
  },
];
