import { CoreEnv, WebhookUrlEnv } from '@platform/config';
import {
  NonPublicAddressError,
  UnresolvableHostError,
  generateWebhookSecret,
  isLifecycleStatus,
  isUuid,
  resolvePublicAddresses,
  webhookUrlProblem,
} from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { BotWebhookRepository, PostbackRepository } from '@platform/database';
import { PostbackQueue, withTimeout } from '@platform/queue';
import { CliCommand, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

type App = Parameters<CliCommand['run']>[0];

async function requireBot(app: App, botId: string) {
  const settings = await app.get(BotWebhookRepository).find(botId).catch(() => null);
  if (!settings) throw new UsageError(`no bot ${botId}`);
  return settings;
}

/** The gateway's rule: https (http with WEBHOOK_ALLOW_HTTP), every resolved address public unless allowed. */
async function checkUrl(app: App, url: string): Promise<void> {
  const env = app.get(WebhookUrlEnv);
  const problem = webhookUrlProblem(url, env.WEBHOOK_ALLOW_HTTP);
  if (problem) throw new UsageError(`--url ${problem}`);
  try {
    await resolvePublicAddresses(new URL(url).hostname, env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES);
  } catch (err) {
    if (err instanceof NonPublicAddressError || err instanceof UnresolvableHostError) throw new UsageError(`--url refused: ${err.message}`);
    throw err;
  }
}

function positiveInt(args: Record<string, unknown>, name: string, fallback: number, max: number): number {
  const raw = args[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be an integer from 1 to ${max}`);
  return n;
}

export const postbackCommands: CliCommand[] = [
  {
    name: 'postback set',
    summary: "Set a bot's postback URL (message status changes are POSTed there, signed with the webhook secret)",
    options: {
      bot: { description: 'Bot id', required: true },
      url: { description: 'https URL on a public address (http / private addresses only with WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE_ADDRESSES)', required: true },
    },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      const url = requireString(args, 'url');
      const current = await requireBot(app, botId);
      await checkUrl(app, url);
      const secret = current.secretEncrypted ? undefined : generateWebhookSecret();
      if (secret) await app.get(BotWebhookRepository).setSecret(botId, app.get(SecretBox).encrypt(secret));
      await app.get(PostbackRepository).setBotUrl(botId, url);
      out(`postback URL set for bot ${botId}: ${url}`);
      if (secret) {
        out('signing secret (shown once; receivers verify webhook-signature with it):');
        out(secret);
      } else {
        out('postbacks are signed with the bot webhook secret');
      }
    },
  },
  {
    name: 'postback show',
    summary: "Show a bot's postback URL",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      const settings = await requireBot(app, botId);
      out(`url: ${(await app.get(PostbackRepository).botUrl(botId)) ?? '(none)'}`);
      out(`signing secret: ${settings.secretEncrypted ? 'set' : 'not set'}`);
    },
  },
  {
    name: 'postback remove',
    summary: "Remove a bot's postback URL (triggers may still name their own)",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      await requireBot(app, botId);
      await app.get(PostbackRepository).setBotUrl(botId, null);
      out(`postback URL removed for bot ${botId}`);
    },
  },
  {
    name: 'postback log',
    summary: "List a bot's postback deliveries, newest first",
    options: {
      bot: { description: 'Bot id', required: true },
      page: { description: 'Page number (default 1)' },
      'page-size': { description: 'Entries per page, up to 100 (default 20)' },
    },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      await requireBot(app, botId);
      const page = positiveInt(args, 'page', 1, 1_000_000);
      const pageSize = positiveInt(args, 'page-size', 20, 100);
      const { items, total } = await app.get(PostbackRepository).page(botId, page, pageSize);
      out(`${total} postback(s); page ${page}`);
      for (const p of items) {
        const state = p.deliveredAt ? `delivered ${p.deliveredAt.toISOString()}` : `not delivered (${p.lastError ?? 'pending'})`;
        out(`${p.id}  attempts ${p.attempts}  last ${p.lastStatus ?? '-'}  ${state}  ${p.url}`);
      }
    },
  },
  {
    name: 'postback replay',
    summary: 'Send a logged postback again (same webhook-id and body)',
    options: { bot: { description: 'Bot id', required: true }, id: { description: 'Postback id (<message id>.<status>)', required: true } },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      const id = requireString(args, 'id');
      const entry = isUuid(botId) ? await app.get(PostbackRepository).find(botId, id) : null;
      if (!entry || !isLifecycleStatus(entry.status)) throw new UsageError(`no postback ${id} for bot ${botId}`);
      const queue = app.get(PostbackQueue);
      const data = { id: entry.id, botId, messageId: entry.messageId, status: entry.status, url: entry.url, body: entry.body };
      await withTimeout(queue.add('replay', data, { jobId: `${entry.id}.replay.${Date.now()}` }), app.get(CoreEnv).REDIS_COMMAND_TIMEOUT_MS, 'queueing the replay');
      out(`postback ${id} queued again`);
    },
  },
];
