import { PushEnv } from '@platform/config';
import { FCM_QUOTA_MAX as MAX, FCM_QUOTA_MIN as MIN, isUuid } from '@platform/contracts';
import { PushConfigRepository } from '@platform/database';
import { CliCommand, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

function parseQuota(value: string): number | null {
  if (value === 'default') return null;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < MIN || n > MAX) throw new UsageError(`--per-minute must be an integer from ${MIN} to ${MAX}, or "default"`);
  return n;
}

export const pushCommands: CliCommand[] = [
  {
    name: 'push set-quota',
    summary: "Set the FCM quota of a bot's Firebase project (messages a minute, across every push service; they apply it at the next batch)",
    options: {
      bot: { description: 'Bot id (it must have a saved Firebase service account)', required: true },
      'per-minute': { description: 'Messages per minute (the project\'s quota in the Google Cloud console), or "default" for PUSH_FCM_QUOTA_PER_MINUTE', required: true },
    },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      const perMinute = parseQuota(requireString(args, 'per-minute'));
      const found = isUuid(botId) && (await app.get(PushConfigRepository).setFcmQuota(botId, perMinute));
      if (!found) throw new UsageError(`bot ${botId} has no Firebase service account (save one with saveBotConfig first)`);
      const fallback = app.get(PushEnv).PUSH_FCM_QUOTA_PER_MINUTE;
      out(`FCM quota of bot ${botId}: ${perMinute ?? fallback} messages per minute${perMinute === null ? ' (platform default)' : ''}`);
    },
  },
];
