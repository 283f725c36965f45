import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SdkSessionRepository } from '@platform/database';

const EVERY_MS = 15 * 60 * 1000;
const GRACE_MS = 60 * 60 * 1000;

/** Deletes sessions an hour after they expired, every 15 minutes in each replica (deletes are idempotent). */
@Injectable()
export class SessionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SessionSweeper');
  private timer?: NodeJS.Timeout;

  constructor(private readonly sessions: SdkSessionRepository) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => void this.sweep(), EVERY_MS + Math.floor(Math.random() * 60_000));
    this.timer.unref();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  async sweep(now = new Date()): Promise<number> {
    let total = 0;
    try {
      for (let batch = 0; batch < 20; batch++) {
        const n = await this.sessions.deleteExpired(new Date(now.getTime() - GRACE_MS));
        total += n;
        if (n < 1000) break;
      }
    } catch (err) {
      this.logger.warn(`sweeping expired sessions failed: ${(err as Error).message}`);
    }
    return total;
  }
}
