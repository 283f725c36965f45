import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { MessageLiveEvent } from '@platform/contracts';
import { CarouselDispatchQueue, type RedisClient, createWorkerRedis, lifecycleStreamKey, withTimeout } from '@platform/queue';
import { BotEvent, lifecycleEvent, queuedEvent } from './message-live-events.js';

type Listener = (event: MessageLiveEvent) => void;
type Entries = Array<[id: string, fields: string[]]>;

/** How long the readers stay on after the last listener left (a page that re-opens its stream finds them running). */
const IDLE_STOP_MS = 10_000;
const BLOCK_MS = 5_000;
const BATCH = 500;

interface Readers {
  ready: Promise<void>;
  connections: RedisClient[];
  stopped: boolean;
}

/**
 * The message events of every bot that someone watches on this replica, read from Redis while there is
 * a listener: status changes from the message lifecycle stream (what MessageLifecyclePublisher writes:
 * sent, delivered, read, failed) and `queued` from the carousel queue's own event stream (BullMQ writes
 * an `added` entry per job; the job's data says which bot and recipient). Each source has its own
 * connection blocked in XREAD, so no replica holds one when nobody watches, and the streams are never
 * consumed for anyone else (plain XREAD, no consumer group).
 */
@Injectable()
export class MessageEventFeed implements BeforeApplicationShutdown {
  private readonly logger = new Logger('MessageEventFeed');
  private readonly listeners = new Map<string, Set<Listener>>();
  private readers: Readers | null = null;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly core: CoreEnv,
    private readonly queue: CarouselDispatchQueue,
  ) {}

  /**
   * Calls `listener` with each later event of the bot. Resolves once reading has started, so nothing
   * that happens after it resolves is missed; rejects (RedisUnavailableError) when Redis does not answer.
   */
  async subscribe(botId: string, listener: Listener): Promise<() => void> {
    let set = this.listeners.get(botId);
    if (!set) this.listeners.set(botId, (set = new Set()));
    set.add(listener);
    clearTimeout(this.idleTimer);
    const unsubscribe = () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(botId) === set) this.listeners.delete(botId);
      if (this.listeners.size === 0) {
        clearTimeout(this.idleTimer);
        this.idleTimer = setTimeout(() => this.stop(), IDLE_STOP_MS).unref();
      }
    };
    try {
      this.readers ??= this.start();
      await withTimeout(this.readers.ready, this.core.REDIS_COMMAND_TIMEOUT_MS, 'starting the message event feed');
    } catch (err) {
      unsubscribe();
      throw err;
    }
    return unsubscribe;
  }

  private start(): Readers {
    const connections = ['lifecycle', 'queue-events'].map((name) => {
      const redis = createWorkerRedis(this.core, `gateway-message-feed-${name}`);
      redis.on('error', (err) => this.logger.debug(`${name}: ${err.message}`));
      return redis;
    });
    const [lifecycle, queueEvents] = connections as [RedisClient, RedisClient];
    const lifecycleKey = lifecycleStreamKey(this.core);
    const eventsKey = this.queue.keys.events!;
    const readers: Readers = { connections, stopped: false, ready: Promise.resolve() };
    readers.ready = Promise.all([lastId(lifecycle, lifecycleKey), lastId(queueEvents, eventsKey)]).then(([fromLifecycle, fromQueue]) => {
      void this.read(readers, lifecycle, lifecycleKey, fromLifecycle, async (entries) => entries.map(([, fields]) => lifecycleEvent(fields)));
      void this.read(readers, queueEvents, eventsKey, fromQueue, (entries) => this.queued(queueEvents, entries));
    });
    readers.ready.catch(() => {
      // Started no reader: the next subscriber tries afresh.
      if (this.readers === readers) this.readers = null;
      readers.stopped = true;
      connections.forEach((c) => c.disconnect());
    });
    return readers;
  }

  private async read(readers: Readers, redis: RedisClient, key: string, from: string, toEvents: (entries: Entries) => Promise<Array<BotEvent | null>>): Promise<void> {
    let cursor = from;
    while (!readers.stopped) {
      try {
        const answer = (await redis.xread('COUNT', BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', key, cursor)) as Array<[string, Entries]> | null;
        const entries = answer?.[0]?.[1] ?? [];
        if (entries.length === 0) continue;
        cursor = entries[entries.length - 1]![0];
        for (const found of await toEvents(entries)) if (found) this.listeners.get(found.botId)?.forEach((listener) => listener(found.event));
      } catch (err) {
        if (readers.stopped) return;
        this.logger.warn(`reading ${key} failed, retrying: ${(err as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  /** `added` entries of carousel jobs, with each job's bot and recipient read in one round trip. */
  private async queued(redis: RedisClient, entries: Entries): Promise<Array<BotEvent | null>> {
    const added = entries
      .map(([id, fields]) => ({ id, event: field(fields, 'event'), jobId: field(fields, 'jobId') }))
      .filter((e): e is { id: string; event: string; jobId: string } => e.event === 'added' && !!e.jobId);
    if (added.length === 0 || this.listeners.size === 0) return [];
    const pipeline = redis.pipeline();
    for (const e of added) pipeline.hget(this.queue.toKey(e.jobId), 'data');
    const results = (await pipeline.exec()) ?? [];
    return added.map((e, i) => queuedEvent(e.id, (results[i]?.[1] as string | null | undefined) ?? null));
  }

  private stop(): void {
    const readers = this.readers;
    if (!readers || this.listeners.size > 0) return;
    this.readers = null;
    readers.stopped = true;
    // Ends the blocked XREADs at once.
    readers.connections.forEach((c) => c.disconnect());
  }

  beforeApplicationShutdown(): void {
    clearTimeout(this.idleTimer);
    this.listeners.clear();
    this.stop();
  }
}

/** The id of a stream's newest entry ('0-0' when it is empty or does not exist): reading after it misses nothing that comes later. */
async function lastId(redis: RedisClient, key: string): Promise<string> {
  const newest = await redis.xrevrange(key, '+', '-', 'COUNT', 1);
  return newest[0]?.[0] ?? '0-0';
}

function field(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}
