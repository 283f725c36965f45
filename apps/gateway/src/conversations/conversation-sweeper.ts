import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConversationEnv } from '@platform/config';
import { ConversationRepository } from '@platform/database';

const EVERY_MS = 60 * 60 * 1000;

/** Deletes conversation messages older than CONVERSATION_RETENTION_DAYS, hourly in each replica (idempotent). */
@Injectable()
export class ConversationSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ConversationSweeper');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly env: ConversationEnv,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => void this.sweep(), EVERY_MS + Math.floor(Math.random() * 60_000));
    this.timer.unref();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  async sweep(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.env.CONVERSATION_RETENTION_DAYS * 24 * 3600 * 1000);
    let total = 0;
    try {
      for (let batch = 0; batch < 50; batch++) {
        const n = await this.conversations.deleteMessagesBefore(before);
        total += n;
        if (n < 1000) break;
      }
    } catch (err) {
      this.logger.warn(`deleting old conversation messages failed: ${(err as Error).message}`);
    }
    return total;
  }
}
