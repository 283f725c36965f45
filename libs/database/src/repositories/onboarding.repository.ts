import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

/** What a bot has done of the console's first-run checklist, each read from the rows the step leaves. */
export interface OnboardingFacts {
  /** A WhatsApp sender number was added. */
  sender: boolean;
  /** A template came from Meta (a sync; hand-registered ones have no Meta id). */
  syncedTemplate: boolean;
  /** An API key was generated (revoked ones count: the step was taken). */
  apiKey: boolean;
  /** A carousel message was sent (the console's test form or the trigger). */
  message: boolean;
  /** A web-chat conversation exists: someone opened the bot's chat page and wrote. */
  webConversation: boolean;
  /** A bot definition was published. */
  publishedVersion: boolean;
}

/** One round trip: six EXISTS probes, each an index lookup on the table's bot_id. */
@Injectable()
export class OnboardingRepository {
  constructor(private readonly prisma: PrismaService) {}

  async facts(botId: string): Promise<OnboardingFacts> {
    const [row] = await this.prisma.$queryRaw<OnboardingFacts[]>`
      SELECT
        EXISTS (SELECT 1 FROM channel_senders WHERE bot_id = ${botId}::uuid) AS "sender",
        EXISTS (SELECT 1 FROM templates WHERE bot_id = ${botId}::uuid AND provider_template_id IS NOT NULL) AS "syncedTemplate",
        EXISTS (SELECT 1 FROM api_keys WHERE bot_id = ${botId}::uuid) AS "apiKey",
        EXISTS (SELECT 1 FROM messages WHERE bot_id = ${botId}::uuid) AS "message",
        EXISTS (SELECT 1 FROM conversations WHERE bot_id = ${botId}::uuid AND channel = 'web') AS "webConversation",
        EXISTS (SELECT 1 FROM bot_versions WHERE bot_id = ${botId}::uuid) AS "publishedVersion"`;
    return row!;
  }
}
