import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { ApiKeyService, UserService } from '@platform/accounts';
import { SecretBox } from '@platform/crypto';
import { generateWebhookSecret } from '@platform/contracts';
import { BotRepository, CallbackSettingsRepository, ChannelSenderRepository, PrismaService, TemplateRepository } from '@platform/database';
import { TemplateSyncService } from '@platform/whatsapp';
import { CliModule } from '../../apps/cli/src/cli.module.js';
import { localPath, readJson, writeJson } from './local-state.js';

export interface DemoBot {
  botId: string;
  templateId: string;
  senderNumber: string;
  /** The template came from `template sync` (it has buttons and placeholders) rather than being typed in. */
  synced?: boolean;
  /** The console's demo administrator of the previous run, replaced by a new one each run. */
  adminUserId?: string;
}

export interface DemoAdmin {
  email: string;
  password: string;
}

/**
 * A demo bot with a WhatsApp sender and a 3-card image carousel template (created once), a fresh API key,
 * and a fresh console administrator of the bot (the previous run's one is deleted, so only the password
 * printed last opens the console). With `echoBotUrl`, that bot becomes the demo bot's webhook, signed
 * with a secret of this run. With `wabaId` (the sandbox's, or WHATSAPP_WABA_ID), the sender names that
 * WhatsApp Business Account and the template is synced from it (`demo_summer_carousel`) instead of typed in.
 */
export async function seedDemo(env: Record<string, string>, echoBotUrl?: string, wabaId?: string): Promise<DemoBot & { apiKey: string; admin: DemoAdmin; webhookSecret?: string }> {
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(env), { logger: ['error'] });
  try {
    const file = localPath(`demo-bot-${Buffer.from(env.DATABASE_URL).toString('base64url').slice(-12)}.json`);
    let demo = readJson<DemoBot>(file);
    if (!demo || !(await app.get(BotRepository).findById(demo.botId))) {
      const bot = await app.get(BotRepository).create('Demo bot');
      const sender = await app.get(ChannelSenderRepository).create({
        botId: bot.id,
        channel: 'whatsapp',
        number: '15550001111',
        phoneNumberId: '100000000000001',
        accessTokenEncrypted: app.get(SecretBox).encrypt(process.env.WHATSAPP_ACCESS_TOKEN ?? 'sandbox-access-token'),
        wabaId: wabaId ?? null,
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
    if (wabaId) demo = { ...demo, templateId: await syncDemoTemplate(app, demo, wabaId), synced: true };
    const { key } = await app.get(ApiKeyService).create(demo.botId, `local up ${new Date().toISOString()}`);
    if (demo.adminUserId) await app.get(PrismaService).user.deleteMany({ where: { id: demo.adminUserId } });
    const admin = { email: `demo-admin-${randomBytes(4).toString('hex')}@example.com`, password: randomBytes(18).toString('base64url') };
    const users = app.get(UserService);
    const user = await users.create(admin.email, admin.password);
    await users.setRole(user.id, demo.botId, 'admin');
    demo = { ...demo, adminUserId: user.id };
    writeJson(file, demo);
    if (!echoBotUrl) return { ...demo, apiKey: key, admin };
    const webhookSecret = generateWebhookSecret();
    await app.get(CallbackSettingsRepository).setSecret(demo.botId, app.get(SecretBox).encrypt(webhookSecret));
    await app.get(CallbackSettingsRepository).setUrl(demo.botId, 'webhook', echoBotUrl);
    return { ...demo, apiKey: key, admin, webhookSecret };
  } finally {
    await app.close();
  }
}

/** Syncs the demo bot's templates from `wabaId` and answers the id of `demo_summer_carousel` (a typed-in one of older runs is adopted, keeping its id). */
async function syncDemoTemplate(app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>, demo: DemoBot, wabaId: string): Promise<string> {
  const senders = app.get(ChannelSenderRepository);
  const sender = await senders.findByNumber(demo.botId, 'whatsapp', demo.senderNumber);
  if (sender && sender.wabaId !== wabaId) await senders.update(demo.botId, sender.id, { wabaId });
  const summary = await app.get(TemplateSyncService).syncBot(demo.botId);
  const template = summary.templates.find((t) => t.name === 'demo_summer_carousel' && t.status === 'APPROVED');
  if (!template) throw new Error(`WABA ${wabaId} has no approved template demo_summer_carousel`);
  return template.id;
}
