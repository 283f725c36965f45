import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { ApiKeyService, UserService } from '@platform/accounts';
import { SecretBox } from '@platform/crypto';
import { validateBotDefinition } from '@platform/bot-engine';
import { BotDefinition, definitionErrorText, generateWebhookSecret } from '@platform/contracts';
import {
  BotDefinitionRepository,
  BotRepository,
  BotSecretRepository,
  CallbackSettingsRepository,
  ChannelSenderRepository,
  ChatPageRepository,
  PrismaService,
  TemplateRepository,
} from '@platform/database';
import type { Prisma } from '@platform/database';
import { TemplateSyncService } from '@platform/whatsapp';
import { CliModule } from '../../apps/cli/src/cli.module.js';
import { localPath, readJson, writeJson } from './local-state.js';

type AppContext = Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;

export interface DemoBot {
  botId: string;
  templateId: string;
  senderNumber: string;
  /** The template came from `template sync` (it has buttons and placeholders) rather than being typed in. */
  synced?: boolean;
  /** The console's demo administrator of the previous run, replaced by a new one each run. */
  adminUserId?: string;
  /** The outside (webhook) echo bot, a bot of its own. */
  echoBotId?: string;
}

export interface DemoAdmin {
  email: string;
  password: string;
}

export interface SeedOptions {
  /** The hosted demo bot's definition, published when it differs from the published version. */
  definition: BotDefinition;
  /** The hosted demo bot's secret store (its http node's token). */
  secrets: Record<string, string>;
  /** The outside echo bot's webhook; without it no echo bot is seeded. */
  echoBotUrl?: string;
  /** The sandbox's WABA (or WHATSAPP_WABA_ID): the template is synced from it. */
  wabaId?: string;
}

export interface SeededDemo extends DemoBot {
  apiKey: string;
  admin: DemoAdmin;
  /** The published version new conversations start on. */
  version: number;
  /** The outside echo bot, when `echoBotUrl` was given. */
  echo?: { botId: string; apiKey: string; webhookSecret: string };
}

/**
 * The demo of `npm run up`:
 * - a **hosted** demo bot: a WhatsApp sender, a 3-card image carousel template and the chat page's name
 *   "Demo bot" (created once), its
 *   definition published as a version (a new version only when the definition changed, so runs do not
 *   pile versions up), its secrets, no webhook (an earlier run's echo webhook is removed: a mirror
 *   must not answer), a fresh API key and a fresh console administrator (the previous run's one is
 *   deleted, so only the password printed last opens the console);
 * - with `echoBotUrl`, an **outside** bot, "Echo (outside bot)" ("Echo bot" on the chat page), whose webhook is the echo bot, signed
 *   with a secret of this run, and an API key for its replies.
 * With `wabaId`, the sender names that WhatsApp Business Account and the template is synced from it
 * (`demo_summer_carousel`) instead of typed in.
 */
export async function seedDemo(env: Record<string, string>, options: SeedOptions): Promise<SeededDemo> {
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(env), { logger: ['error'] });
  try {
    const file = localPath(`demo-bot-${Buffer.from(env.DATABASE_URL).toString('base64url').slice(-12)}.json`);
    let demo = readJson<DemoBot>(file);
    if (!demo || !(await app.get(BotRepository).findById(demo.botId))) {
      const bot = await app.get(BotRepository).create('Demo bot (hosted)');
      // The chat page's header shows it; set once, so a name given later in the console stays.
      await app.get(ChatPageRepository).setProfile(bot.id, { displayName: 'Demo bot' });
      const sender = await app.get(ChannelSenderRepository).create({
        botId: bot.id,
        channel: 'whatsapp',
        number: '15550001111',
        phoneNumberId: '100000000000001',
        accessTokenEncrypted: app.get(SecretBox).encrypt(process.env.WHATSAPP_ACCESS_TOKEN ?? 'sandbox-access-token'),
        wabaId: options.wabaId ?? null,
      });
      const template = await app.get(TemplateRepository).create({
        botId: bot.id,
        channel: 'whatsapp',
        providerName: 'demo_summer_carousel',
        language: 'en_US',
        category: 'MARKETING',
        cardCount: 3,
        cardHeaderFormat: 'image',
      });
      demo = { botId: bot.id, templateId: template.id, senderNumber: sender.number };
      writeJson(file, demo);
    }
    if (options.wabaId) demo = { ...demo, templateId: await syncDemoTemplate(app, demo, options.wabaId), synced: true };
    const { key } = await app.get(ApiKeyService).create(demo.botId, `local up ${new Date().toISOString()}`);
    if (demo.adminUserId) await app.get(PrismaService).user.deleteMany({ where: { id: demo.adminUserId } });
    const admin = { email: `demo-admin-${randomBytes(4).toString('hex')}@example.com`, password: randomBytes(18).toString('base64url') };
    const users = app.get(UserService);
    const user = await users.create(admin.email, admin.password);
    await users.setRole(user.id, demo.botId, 'admin');
    demo = { ...demo, adminUserId: user.id };

    // Runs before this one made the demo bot the echo bot's webhook; as a hosted bot's mirror it would answer too.
    await app.get(CallbackSettingsRepository).clearUrl(demo.botId, 'webhook');
    const version = await publishDefinition(app, demo.botId, options.definition);
    await storeSecrets(app, demo.botId, options.secrets);

    let echo: SeededDemo['echo'];
    if (options.echoBotUrl) {
      if (!demo.echoBotId || !(await app.get(BotRepository).findById(demo.echoBotId))) {
        const echoBot = await app.get(BotRepository).create('Echo (outside bot)');
        await app.get(ChatPageRepository).setProfile(echoBot.id, { displayName: 'Echo bot' });
        demo = { ...demo, echoBotId: echoBot.id };
      }
      const webhookSecret = generateWebhookSecret();
      await app.get(CallbackSettingsRepository).setSecret(demo.echoBotId!, app.get(SecretBox).encrypt(webhookSecret));
      await app.get(CallbackSettingsRepository).setUrl(demo.echoBotId!, 'webhook', options.echoBotUrl);
      const echoKey = await app.get(ApiKeyService).create(demo.echoBotId!, `local up echo bot ${new Date().toISOString()}`);
      echo = { botId: demo.echoBotId!, apiKey: echoKey.key, webhookSecret };
    }
    writeJson(file, demo);
    return { ...demo, apiKey: key, admin, version, echo };
  } finally {
    await app.close();
  }
}

/**
 * Publishes `definition` as the bot's next version (validated as `bot deploy` does) unless the published
 * one is the same document; answers the published version.
 */
async function publishDefinition(app: AppContext, botId: string, definition: BotDefinition): Promise<number> {
  const checked = validateBotDefinition(definition);
  if (!checked.ok) throw new Error(`the demo definition is invalid: ${checked.errors.map(definitionErrorText).join('; ')}`);
  const definitions = app.get(BotDefinitionRepository);
  const current = await definitions.publishedVersion(botId);
  const published = current === null ? null : await definitions.findVersion(botId, current);
  if (current !== null && published && isDeepStrictEqual(published.definition, definition)) return current;
  return definitions.saveAndPublish(botId, definition as unknown as Prisma.InputJsonValue, 'npm run up', 'the demo definition (tools/up/demo-bot.ts)');
}

async function storeSecrets(app: AppContext, botId: string, secrets: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(secrets)) await app.get(BotSecretRepository).set(botId, name, value);
}

/** Syncs the demo bot's templates from `wabaId` and answers the id of `demo_summer_carousel` (a typed-in one of older runs is adopted, keeping its id). */
async function syncDemoTemplate(app: AppContext, demo: DemoBot, wabaId: string): Promise<string> {
  const senders = app.get(ChannelSenderRepository);
  const sender = await senders.findByNumber(demo.botId, 'whatsapp', demo.senderNumber);
  if (sender && sender.wabaId !== wabaId) await senders.update(demo.botId, sender.id, { wabaId });
  const summary = await app.get(TemplateSyncService).syncBot(demo.botId);
  const template = summary.templates.find((t) => t.name === 'demo_summer_carousel' && t.status === 'APPROVED');
  if (!template) throw new Error(`WABA ${wabaId} has no approved template demo_summer_carousel`);
  return template.id;
}
