import { CoreEnv } from '@platform/config';
import { CallbackJob, isLifecycleStatus, isUuid } from '@platform/contracts';
import { CallbackDeliveryRepository } from '@platform/database';
import { CallbackQueue, withTimeout } from '@platform/queue';
import { CliCommand, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';
import { clearCallbackUrl, requireBotCallbacks, setCallbackUrl } from './callback-settings.js';

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
      const secret = await setCallbackUrl(app, botId, 'postback', url, false);
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
      const settings = await requireBotCallbacks(app, botId);
      const postback = settings.endpoints.postback;
      out(`url: ${postback?.url ?? '(none)'}`);
      out(`signing secret: ${settings.secret ? 'set' : 'not set'}`);
      if (postback?.disabledAt) out(`disabled: ${postback.disabledAt.toISOString()} (${postback.disabledReason ?? ''}); set the URL again to enable it`);
    },
  },
  {
    name: 'postback remove',
    summary: "Remove a bot's postback URL (triggers may still name their own)",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      await clearCallbackUrl(app, botId, 'postback');
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
      await requireBotCallbacks(app, botId);
      const page = positiveInt(args, 'page', 1, 1_000_000);
      const pageSize = positiveInt(args, 'page-size', 20, 100);
      const { items, total } = await app.get(CallbackDeliveryRepository).page(botId, page, pageSize, 'postback');
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
      const entry = isUuid(botId) ? await app.get(CallbackDeliveryRepository).find(botId, id) : null;
      if (!entry || entry.kind !== 'postback' || !entry.messageId || !entry.status || !isLifecycleStatus(entry.status)) throw new UsageError(`no postback ${id} for bot ${botId}`);
      const queue = app.get(CallbackQueue);
      const data: CallbackJob = { id: entry.id, botId, kind: 'postback', event: entry.event, messageId: entry.messageId, status: entry.status, url: entry.url, body: entry.body };
      await withTimeout(queue.add('replay', data, { jobId: `${entry.id}.replay.${Date.now()}` }), app.get(CoreEnv).REDIS_COMMAND_TIMEOUT_MS, 'queueing the replay');
      out(`postback ${id} queued again`);
    },
  },
];
