import { INestApplicationContext } from '@nestjs/common';
import { ApiKeyService } from '@platform/accounts';
import type { MessageStatusResponse } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { BotRepository, ChannelSenderRepository, TemplateRepository } from '@platform/database';
import { until } from './polling.js';

export interface SeededBot {
  botId: string;
  apiKey: string;
  templateId: string;
  senderNumber: string;
  phoneNumberId: string;
  accessToken: string;
}

/** A bot with a WhatsApp sender, a carousel template of `cardCount` image cards and an API key. */
export async function seedCarouselBot(app: INestApplicationContext, cardCount = 3): Promise<SeededBot> {
  const bot = await app.get(BotRepository, { strict: false }).create('test bot');
  const accessToken = `EAAG-test-token-${bot.id.slice(0, 8)}`;
  const phoneNumberId = `1065${Math.floor(Math.random() * 1e10)}`;
  const senderNumber = '15550001111';
  await app.get(ChannelSenderRepository, { strict: false }).create({
    botId: bot.id,
    channel: 'whatsapp',
    number: senderNumber,
    phoneNumberId,
    accessTokenEncrypted: app.get(SecretBox, { strict: false }).encrypt(accessToken),
  });
  const template = await app.get(TemplateRepository, { strict: false }).create({
    botId: bot.id,
    channel: 'whatsapp',
    providerName: 'summer_carousel',
    language: 'en_US',
    category: 'MARKETING',
    cardCount,
    cardHeaderFormat: 'image',
  });
  const { key } = await app.get(ApiKeyService, { strict: false }).create(bot.id, 'test key');
  return { botId: bot.id, apiKey: key, templateId: template.id, senderNumber, phoneNumberId, accessToken };
}

/** A valid trigger body for a seeded bot. */
export function carouselBody(seed: SeededBot, cards = 3, number = '+919876543210') {
  return {
    userDetails: { number },
    notification: {
      templateId: seed.templateId,
      type: 'whatsapp',
      sender: `+${seed.senderNumber}`,
      params: { cards: Array.from({ length: cards }, (_, i) => ({ media: { mediaLink: `https://cdn.example.com/card-${i}.jpg` } })) },
    },
  };
}

/** POSTs the carousel trigger for `seed`'s bot with its API key; the message id of the 200 answer. */
export async function triggerCarousel(gatewayUrl: string, seed: SeededBot, body: object = carouselBody(seed)): Promise<string> {
  const res = await fetch(`${gatewayUrl}/api/engagements/notifications/v2/push?bot=${seed.botId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': seed.apiKey },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`trigger answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { msgId: string }).msgId;
}

/** GET /v1/messages/<msgId> with `seed`'s API key: the message's status answer. */
export async function messageStatus(gatewayUrl: string, seed: SeededBot, msgId: string): Promise<MessageStatusResponse> {
  const res = await fetch(`${gatewayUrl}/v1/messages/${msgId}`, { headers: { authorization: `Bearer ${seed.apiKey}` } });
  return (await res.json()) as MessageStatusResponse;
}

/** Polls the message until its status is one of `want`; that answer. */
export function waitForMessageStatus(gatewayUrl: string, seed: SeededBot, msgId: string, want: readonly string[], timeoutMs = 10_000): Promise<MessageStatusResponse> {
  return until(
    async () => {
      const s = await messageStatus(gatewayUrl, seed, msgId);
      return want.includes(s.status) ? s : undefined;
    },
    timeoutMs,
    `message ${msgId} reaching ${want.join(' or ')}`,
  );
}
