import { Inject, Injectable, Logger } from '@nestjs/common';
import { CallbackEnv, CoreEnv, LifecycleStreamEnv } from '@platform/config';
import { endpointDisabledStreamFields } from '@platform/contracts';
import type { CallbackKindName } from '@platform/database';
import { CallbackSettingsRepository } from '@platform/database';
import { REQUEST_REDIS, type RedisClient, lifecycleStreamKey, withTimeout } from '@platform/queue';

const HOUR_MS = 3600_000;

/**
 * Tracks whether a bot's endpoint answers. One that failed every attempt for CALLBACK_DISABLE_AFTER_HOURS
 * is disabled (no more calls until its URL is set again), which is logged and published as an
 * `endpoint.disabled` event on the lifecycle stream: receivers that are down for days would otherwise
 * have calls retried at them forever, and their owners would not know.
 */
@Injectable()
export class EndpointHealth {
  private readonly logger = new Logger('CallbackEndpoints');

  constructor(
    private readonly settings: CallbackSettingsRepository,
    private readonly env: CallbackEnv,
    private readonly stream: LifecycleStreamEnv,
    private readonly core: CoreEnv,
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
  ) {}

  answered(botId: string, kind: CallbackKindName, url: string): Promise<void> {
    return this.settings.markAnswered(botId, kind, url);
  }

  async failed(botId: string, kind: CallbackKindName, url: string, reason: string, now = new Date()): Promise<void> {
    const disableBefore = new Date(now.getTime() - this.env.CALLBACK_DISABLE_AFTER_HOURS * HOUR_MS);
    const disabled = await this.settings.markFailed(botId, kind, url, now, disableBefore, reason);
    if (!disabled) return;
    this.logger.warn(`endpoint.disabled: ${kind} endpoint of bot ${botId} failed every call for ${this.env.CALLBACK_DISABLE_AFTER_HOURS} h (last: ${reason}); set its URL again to enable it`);
    const fields = endpointDisabledStreamFields({ type: 'endpoint.disabled', botId, kind, url, at: now.toISOString(), reason });
    const key = lifecycleStreamKey(this.core);
    await withTimeout(this.redis.xadd(key, 'MAXLEN', '~', this.stream.LIFECYCLE_STREAM_MAXLEN, '*', ...fields), this.core.REDIS_COMMAND_TIMEOUT_MS, 'publishing endpoint.disabled').catch(
      (err: Error) => this.logger.error(`endpoint.disabled of bot ${botId} not published on the lifecycle stream: ${err.message}`),
    );
  }
}
