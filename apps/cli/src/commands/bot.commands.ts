import { TriggerGuardEnv } from '@platform/config';
import { TRIGGER_QUOTA_MAX, TRIGGER_QUOTA_MIN, isUuid } from '@platform/contracts';
import { BotRepository } from '@platform/database';
import { CliCommand, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

function parseQuota(value: string): number | null {
  if (value === 'default') return null;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < TRIGGER_QUOTA_MIN || n > TRIGGER_QUOTA_MAX) {
    throw new UsageError(`--per-minute must be an integer from ${TRIGGER_QUOTA_MIN} to ${TRIGGER_QUOTA_MAX}, or "default"`);
  }
  return n;
}

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
  {
    name: 'bot set-quota',
    summary: 'Set how many carousel triggers a bot may make per minute (gateways apply it within CATALOG_CACHE_MS)',
    options: {
      bot: { description: 'Bot id', required: true },
      'per-minute': { description: 'Triggers per minute, or "default" for TRIGGER_QUOTA_PER_MINUTE', required: true },
    },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      const perMinute = parseQuota(requireString(args, 'per-minute'));
      const found = isUuid(botId) && (await app.get(BotRepository).setTriggerQuota(botId, perMinute));
      if (!found) throw new UsageError(`no bot ${botId}`);
      const fallback = app.get(TriggerGuardEnv).TRIGGER_QUOTA_PER_MINUTE;
      out(`trigger quota of bot ${botId}: ${perMinute ?? fallback} per minute${perMinute === null ? ' (platform default)' : ''}`);
    },
  },
];
