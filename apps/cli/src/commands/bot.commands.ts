import { BotRepository } from '@platform/database';
import { CliCommand, requireString } from '../command.js';

export const botCommands: CliCommand[] = [
  {
    name: 'bot create',
    summary: 'Create a bot',
    options: { name: { description: 'Display name', required: true } },
    async run(app, args, out) {
      const bot = await app.get(BotRepository).create(requireString(args, 'name'));
      out(`bot created: ${bot.id} (${bot.name})`);
    },
  },
  {
    name: 'bot list',
    summary: 'List bots',
    options: {},
    async run(app, _args, out) {
      for (const bot of await app.get(BotRepository).list()) out(`${bot.id}  ${bot.name}  created ${bot.createdAt.toISOString()}`);
    },
  },
];
