import { WebhookUrlEnv } from '@platform/config';
import { generateWebhookSecret, webhookUrlProblem } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { BotWebhookRepository } from '@platform/database';
import { CliCommand, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

async function requireWebhookSettings(app: Parameters<CliCommand['run']>[0], botId: string) {
  const settings = await app.get(BotWebhookRepository).find(botId).catch(() => null);
  if (!settings) throw new UsageError(`no bot ${botId}`);
  return settings;
}

export const webhookCommands: CliCommand[] = [
  {
    name: 'webhook set',
    summary: "Set a bot's webhook URL (session starts and app events are POSTed there, signed); prints a new signing secret once",
    options: {
      bot: { description: 'Bot id', required: true },
      url: { description: 'https URL of the bot endpoint (http only when WEBHOOK_ALLOW_HTTP=true)', required: true },
      'rotate-secret': { description: 'Generate a new signing secret even if the bot has one', boolean: true },
    },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      const url = requireString(args, 'url');
      const problem = webhookUrlProblem(url, app.get(WebhookUrlEnv).WEBHOOK_ALLOW_HTTP);
      if (problem) throw new UsageError(`--url ${problem}`);
      const current = await requireWebhookSettings(app, botId);
      const secret = args['rotate-secret'] === true || !current.secretEncrypted ? generateWebhookSecret() : undefined;
      await app.get(BotWebhookRepository).set(botId, url, secret && app.get(SecretBox).encrypt(secret));
      out(`webhook set for bot ${botId}: ${url}`);
      if (secret) {
        out('signing secret (shown once; the bot verifies x-platform-signature with it):');
        out(secret);
      } else {
        out('signing secret unchanged (use --rotate-secret for a new one)');
      }
    },
  },
  {
    name: 'webhook show',
    summary: "Show a bot's webhook URL and whether a signing secret is set",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      const settings = await requireWebhookSettings(app, requireString(args, 'bot'));
      out(`url: ${settings.url ?? '(none)'}`);
      out(`signing secret: ${settings.secretEncrypted ? 'set' : 'not set'}`);
    },
  },
  {
    name: 'webhook remove',
    summary: "Remove a bot's webhook and its signing secret",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      await requireWebhookSettings(app, botId);
      await app.get(BotWebhookRepository).clear(botId);
      out(`webhook removed for bot ${botId}`);
    },
  },
];
