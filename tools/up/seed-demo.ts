import { NestFactory } from '@nestjs/core';
import { ApiKeyService } from '@platform/auth';
import { SecretBox } from '@platform/crypto';
import { generateWebhookSecret } from '@platform/contracts';
import { BotRepository, BotWebhookRepository, ChannelSenderRepository, TemplateRepository } from '@platform/database';
import { CliModule } from '../../apps/cli/src/cli.module.js';
import { localPath, readJson, writeJson } from './local-state.js';

export interface DemoBot {
  botId: string;
  templateId: string;
  senderNumber: string;
}

/** A demo bot with a WhatsApp sender and a 3-card image carousel template (created once), and a fresh API key. */
export async function seedDemo(env: Record<string, string>, echoBotUrl?: string): Promise<DemoBot & { apiKey: string; webhookSecret?: string }> {
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
    const { key } = await app.get(ApiKeyService).create(demo.botId, `local up ${new Date().toISOString()}`);
    if (!echoBotUrl) return { ...demo, apiKey: key };
    // The demo echo bot answers the web chat: its webhook, with a signing secret of this run.
    const webhookSecret = generateWebhookSecret();
    await app.get(BotWebhookRepository).set(demo.botId, echoBotUrl, app.get(SecretBox).encrypt(webhookSecret));
    return { ...demo, apiKey: key, webhookSecret };
  } finally {
    await app.close();
  }
}
