import { PHONE_NUMBER, SENDER_THROUGHPUT, senderThroughputProblem } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { BotRepository, ChannelSenderRepository, TemplateRepository } from '@platform/database';
import { GraphApiError, NoBusinessAccountError, TemplateSyncService } from '@platform/whatsapp';
import { CliCommand, requireId, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

async function requireBot(app: Parameters<CliCommand['run']>[0], botId: string) {
  const bot = await app
    .get(BotRepository)
    .findById(botId)
    .catch(() => null);
  if (!bot) throw new UsageError(`no bot ${botId}`);
  return bot;
}

function throughputOption(args: Parameters<CliCommand['run']>[1]): number | undefined {
  if (args.throughput === undefined) return undefined;
  const value = Number(requireString(args, 'throughput'));
  const problem = senderThroughputProblem(value);
  if (problem) throw new UsageError(`--${problem}`);
  return value;
}

export const whatsappCommands: CliCommand[] = [
  {
    name: 'sender create',
    summary: 'Add a WhatsApp sender number to a bot (the access token is stored encrypted)',
    options: {
      bot: { description: 'Bot id', required: true },
      number: { description: 'Sender number with country code, e.g. +15550001111', required: true },
      'phone-number-id': { description: 'WhatsApp Cloud API phone-number id', required: true },
      'access-token-env': { description: 'Name of the env variable holding the Cloud API access token (default WHATSAPP_ACCESS_TOKEN)' },
      'waba-id': { description: 'WhatsApp Business Account id that owns the number (where `template sync` reads templates)' },
      throughput: { description: `Messages per second sent through this number, all workers together (default ${SENDER_THROUGHPUT.default}, the tier Meta gives a new number)` },
    },
    async run(app, args, out) {
      const bot = await requireBot(app, requireId(args, 'bot', '`bot list`'));
      const number = requireString(args, 'number');
      if (!PHONE_NUMBER.test(number)) throw new UsageError('--number must have a country code: 8-15 digits, optional leading +');
      const phoneNumberId = requireString(args, 'phone-number-id');
      // Meta's phone-number ids are numeric; a placeholder copied from the docs (<PHONE_NUMBER_ID>) would be stored and fail every send.
      if (!/^\d{1,32}$/.test(phoneNumberId)) throw new UsageError(`--phone-number-id must be the numeric phone-number id from WhatsApp Manager (got "${phoneNumberId}")`);
      const throughput = throughputOption(args);
      const envName = typeof args['access-token-env'] === 'string' ? args['access-token-env'] : 'WHATSAPP_ACCESS_TOKEN';
      const token = process.env[envName];
      if (!token) throw new UsageError(`set the Cloud API access token in the env variable ${envName} (it is not taken on the command line, so it stays out of shell history)`);
      const sender = await app.get(ChannelSenderRepository).create({
        botId: bot.id,
        channel: 'whatsapp',
        number: number.replace(/^\+/, ''),
        phoneNumberId,
        accessTokenEncrypted: app.get(SecretBox).encrypt(token),
        wabaId: optionalWabaId(args),
        throughput,
      });
      out(`sender created: ${sender.id} (+${sender.number}, phone-number-id ${sender.phoneNumberId}${sender.wabaId ? `, WABA ${sender.wabaId}` : ''}, ${sender.throughput} messages/s)`);
    },
  },
  {
    name: 'sender set-waba',
    summary: "Set the WhatsApp Business Account id of a bot's sender (where `template sync` reads templates)",
    options: {
      bot: { description: 'Bot id', required: true },
      number: { description: 'Sender number with country code', required: true },
      'waba-id': { description: 'WhatsApp Business Account id', required: true },
    },
    async run(app, args, out) {
      const bot = await requireBot(app, requireString(args, 'bot'));
      const number = requireString(args, 'number').replace(/^\+/, '');
      const senders = app.get(ChannelSenderRepository);
      const sender = await senders.findByNumber(bot.id, 'whatsapp', number);
      if (!sender) throw new UsageError(`+${number} is not a WhatsApp sender of bot ${bot.id}`);
      await senders.update(bot.id, sender.id, { wabaId: optionalWabaId(args) });
      out(`sender +${number}: WABA ${optionalWabaId(args)}`);
    },
  },
  {
    name: 'template sync',
    summary: "Read the bot's carousel templates from its senders' WhatsApp Business Accounts (Cloud API) and store them",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      const bot = await requireBot(app, requireString(args, 'bot'));
      let summary;
      try {
        summary = await app.get(TemplateSyncService).syncBot(bot.id);
      } catch (err) {
        if (err instanceof NoBusinessAccountError || err instanceof GraphApiError) throw new UsageError(err.message);
        throw err;
      }
      for (const t of summary.templates) out(`${t.change.padEnd(9)} ${t.id} ${t.name} (${t.language}) ${t.status}`);
      out(
        `templates synced from WABA ${summary.accounts.join(', ')}: ${summary.created} created, ${summary.updated} updated, ` +
          `${summary.unchanged} unchanged, ${summary.deleted} deleted, ${summary.skipped} skipped (not carousels)`,
      );
    },
  },
  {
    name: 'sender set-throughput',
    summary: "Set the messages per second the workers send through a sender number (Meta's tier of that number)",
    options: {
      bot: { description: 'Bot id', required: true },
      sender: { description: 'Sender id', required: true },
      throughput: { description: `Messages per second, ${SENDER_THROUGHPUT.min}-${SENDER_THROUGHPUT.max}`, required: true },
    },
    async run(app, args, out) {
      const bot = await requireBot(app, requireString(args, 'bot'));
      const throughput = throughputOption(args)!;
      const senderId = requireString(args, 'sender');
      const sender = await app
        .get(ChannelSenderRepository)
        .setThroughput(bot.id, senderId, throughput)
        .catch(() => null);
      if (!sender) throw new UsageError(`bot ${bot.id} has no sender ${senderId}`);
      out(`sender ${sender.id} (+${sender.number}): ${sender.throughput} messages/s (workers apply it within CATALOG_CACHE_MS)`);
    },
  },
  {
    name: 'template create',
    summary: 'Register an approved WhatsApp carousel template for a bot',
    options: {
      bot: { description: 'Bot id', required: true },
      name: { description: 'Template name as approved at Meta', required: true },
      language: { description: 'Language code, e.g. en_US', required: true },
      cards: { description: 'Number of cards, 2-10', required: true },
      header: { description: 'Card header format: image or video (default image)' },
      category: { description: 'MARKETING or UTILITY (default MARKETING)' },
    },
    async run(app, args, out) {
      const bot = await requireBot(app, requireString(args, 'bot'));
      const cardCount = Number(requireString(args, 'cards'));
      if (!Number.isInteger(cardCount) || cardCount < 2 || cardCount > 10) throw new UsageError('--cards must be an integer from 2 to 10');
      const header = typeof args.header === 'string' ? args.header : 'image';
      if (header !== 'image' && header !== 'video') throw new UsageError('--header must be image or video');
      const template = await app.get(TemplateRepository).create({
        botId: bot.id,
        channel: 'whatsapp',
        providerName: requireString(args, 'name'),
        language: requireString(args, 'language'),
        category: typeof args.category === 'string' ? args.category : 'MARKETING',
        cardCount,
        cardHeaderFormat: header,
      });
      out(`template created: ${template.id} (${template.providerName}, ${template.language}, ${cardCount} ${header} cards)`);
    },
  },
];

function optionalWabaId(args: Parameters<CliCommand['run']>[1]): string | null {
  const value = args['waba-id'];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^\d{1,32}$/.test(value.trim())) throw new UsageError('--waba-id must be the numeric WhatsApp Business Account id');
  return value.trim();
}
