import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConversationEnv } from '@platform/config';
import { ConversationRepository } from '@platform/database';

const BATCH = 1000;
const MAX_BATCHES = 50;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Enforces CONVERSATION_RETENTION_DAYS in each gateway replica, every CONVERSATION_SWEEP_INTERVAL_SECONDS:
 * deletes the messages older than the retention, then the conversations left without messages and
 * unused as long. Idempotent, so replicas may overlap. The first run comes soon after start (a
 * random delay of up to a minute spreads the replicas), so restarts do not postpone it.
 */
@Injectable()
export class ConversationSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ConversationSweeper');
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly env: ConversationEnv,
  ) {}

  onApplicationBootstrap() {
    const interval = this.env.CONVERSATION_SWEEP_INTERVAL_SECONDS * 1000;
    this.schedule(Math.random() * Math.min(interval, 60_000));
  }

  onApplicationShutdown() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.sweep().finally(() => this.schedule(this.env.CONVERSATION_SWEEP_INTERVAL_SECONDS * 1000));
    }, delayMs);
    this.timer.unref();
  }

  /** One run; returns how many messages and conversations it deleted. */
  async sweep(now = new Date()): Promise<{ messages: number; conversations: number }> {
    const before = new Date(now.getTime() - this.env.CONVERSATION_RETENTION_DAYS * DAY_MS);
    const deleted = { messages: 0, conversations: 0 };
    try {
      deleted.messages = await this.drain(() => this.conversations.deleteMessagesBefore(before, BATCH));
      deleted.conversations = await this.drain(() => this.conversations.deleteUnusedBefore(before, BATCH));
    } catch (err) {
      this.logger.warn(`deleting conversations past the retention failed: ${(err as Error).message}`);
    }
    return deleted;
  }

  private async drain(batch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES && !this.stopped; i++) {
      const n = await batch();
      total += n;
      if (n < BATCH) break;
    }
    return total;
  }
}
