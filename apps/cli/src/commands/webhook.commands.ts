import { CliCommand, requireString } from '../command.js';
import { clearCallbackUrl, requireBotCallbacks, setCallbackUrl } from './callback-settings.js';

export const webhookCommands: CliCommand[] = [
  {
    name: 'webhook set',
    summary: "Set a bot's webhook URL (session starts, app events and messages are POSTed there, signed); prints a new signing secret once",
    options: {
      bot: { description: 'Bot id', required: true },
      url: { description: 'https URL on a public address (http / private addresses only with WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE_ADDRESSES)', required: true },
      'rotate-secret': { description: 'Generate a new signing secret even if the bot has one (the previous one signs too for CALLBACK_SECRET_ROTATION_HOURS)', boolean: true },
    },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      const url = requireString(args, 'url');
      const secret = await setCallbackUrl(app, botId, 'webhook', url, args['rotate-secret'] === true);
      out(`webhook set for bot ${botId}: ${url}`);
      if (secret) {
        out('signing secret (shown once; the bot verifies webhook-signature, or x-platform-signature, with it):');
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
      const settings = await requireBotCallbacks(app, requireString(args, 'bot'));
      const webhook = settings.endpoints.webhook;
      out(`url: ${webhook?.url ?? '(none)'}`);
      out(`signing secret: ${settings.secret ? 'set' : 'not set'}`);
      if (webhook?.disabledAt) out(`disabled: ${webhook.disabledAt.toISOString()} (${webhook.disabledReason ?? ''}); set the URL again to enable it`);
    },
  },
  {
    name: 'webhook remove',
    summary: "Remove a bot's webhook (and its signing secret unless a postback URL still uses it)",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      await clearCallbackUrl(app, botId, 'webhook');
      out(`webhook removed for bot ${botId}`);
    },
  },
];
