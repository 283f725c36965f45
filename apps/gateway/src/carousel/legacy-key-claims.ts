import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Cluster } from 'ioredis';
import { CoreEnv } from '@platform/config';
import { isUuid } from '@platform/contracts';
import { MessageRepository } from '@platform/database';
import { CarouselDispatchQueue, REQUEST_REDIS, type RedisClient, redisKey } from '@platform/queue';
import { idempotencyClaim } from './trigger-idempotency.js';

/** An earlier gateway's record of an Idempotency-Key: `trigger-idem:{<botId>}:<key>` holding `{"f","m","t"}`. */
const LEGACY_RECORD = /trigger-idem:\{([^}]+)\}:(.+)$/s;

/**
 * Carries the Idempotency-Keys that gateways of an earlier version claimed (a record of their own,
 * kept 24 h) over to this version's claims, once, at start: each record whose message was queued becomes
 * that message's claim for the rest of its 24 h, so a repeat after an upgrade still gets the first
 * answer instead of a second message. (A repeat with another body is then answered as a replay too: the
 * earlier message keeps no fingerprint.) A record whose message was never queued is left: its request
 * died before queueing, and a repeat runs as a new trigger, as the earlier gateways let it after their
 * wait. Keys an earlier gateway claims after this one started are not seen (docs/api.md).
 */
@Injectable()
export class LegacyKeyClaims implements OnApplicationBootstrap {
  private readonly logger = new Logger(LegacyKeyClaims.name);
  /** The carrying over started at bootstrap: resolves with the claims carried, once it ended. */
  done: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly core: CoreEnv,
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
    private readonly queue: CarouselDispatchQueue,
    private readonly messages: MessageRepository,
  ) {}

  onApplicationBootstrap(): void {
    // In the background: a scan of a large keyspace must not hold the gateway's start.
    this.done = this.carryOver().catch((err: unknown) => {
      this.logger.warn(`Idempotency-Keys of an earlier version were not carried over: ${err instanceof Error ? err.message : String(err)}`);
      return 0;
    });
  }

  async carryOver(): Promise<number> {
    let carried = 0;
    for (const node of this.redis instanceof Cluster ? this.redis.nodes('master') : [this.redis]) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', redisKey(this.core, 'trigger-idem:*'), 'COUNT', 1000);
        cursor = next;
        for (const key of keys) if (await this.carry(key)) carried++;
      } while (cursor !== '0');
    }
    if (carried > 0) this.logger.log(`${carried} Idempotency-Keys of an earlier version carried over`);
    return carried;
  }

  private async carry(recordKey: string): Promise<boolean> {
    const found = LEGACY_RECORD.exec(recordKey);
    if (!found || !isUuid(found[1])) return false;
    const [, botId, key] = found;
    const [record, ttlMs] = await Promise.all([this.redis.get(recordKey), this.redis.pttl(recordKey)]);
    const msgId = record === null ? undefined : messageIdOf(record);
    if (msgId === undefined || ttlMs <= 0 || !(await this.wasQueued(botId, msgId))) return false;
    const claim = `${this.queue.keys.de}:${idempotencyClaim(botId, key).id}`;
    return (await this.redis.set(claim, msgId, 'PX', ttlMs, 'NX')) === 'OK';
  }

  private async wasQueued(botId: string, msgId: string): Promise<boolean> {
    return (await this.queue.getJob(msgId)) !== undefined || (await this.messages.findForBot(botId, msgId)) !== null;
  }
}

function messageIdOf(record: string): string | undefined {
  try {
    const m = (JSON.parse(record) as { m?: unknown }).m;
    return isUuid(m) ? m : undefined;
  } catch {
    return undefined;
  }
}
