import { Inject, Injectable } from '@nestjs/common';
import { CoreEnv, SdkEnv } from '@platform/config';
import { WireBotEvent } from '@platform/contracts';
import { REQUEST_REDIS, type RedisClient, sdkEventDedupeKey, sdkNotifyChannel, sdkUserKeys, withTimeout } from '@platform/queue';

// Redis holds each user's unacked events as a stream (ids are the event ids, in order) and the user's live
// stream connections as a sorted set scored by expiry. Times come from Redis (TIME), so replicas' clocks do not matter.
// With a dedupe marker (KEYS[3], ARGV[5] = '1') the append happens once: the marker keeps the first
// append's stream id for the retention, and a second append of the same event answers that id, adding
// nothing and publishing nothing (a bot runtime handing over its outbox again after a crash).
const APPEND = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local live = redis.call('ZCARD', KEYS[2])
if ARGV[5] == '1' then
  local prior = redis.call('GET', KEYS[3])
  if prior then return {prior, live, 1} end
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '*', 'e', ARGV[1])
redis.call('XTRIM', KEYS[1], 'MINID', string.format('%d', now - tonumber(ARGV[3])))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[5] == '1' then redis.call('SET', KEYS[3], id, 'PX', ARGV[3]) end
redis.call('PUBLISH', ARGV[4], id)
return {id, live, 0}`;

// Several events in order, in one call: a bot turn's replies. ARGV[4..] are pairs (deduped '1' or '0',
// event), the event's dedupe marker KEYS[1 + its pair's number] (named, never written, when not deduped).
// One announcement for all of them (the gateways pull whatever is new).
const APPEND_MANY = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local added = false
local ids = {}
for i = 4, #ARGV, 2 do
  local marker = KEYS[1 + (i - 2) / 2]
  local prior = false
  if ARGV[i] == '1' then prior = redis.call('GET', marker) end
  if prior then
    ids[#ids + 1] = prior
  else
    local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'e', ARGV[i + 1])
    if ARGV[i] == '1' then redis.call('SET', marker, id, 'PX', ARGV[2]) end
    ids[#ids + 1] = id
    added = true
  end
end
if added then
  redis.call('XTRIM', KEYS[1], 'MINID', string.format('%d', now - tonumber(ARGV[2])))
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PUBLISH', ARGV[3], ids[#ids])
end
return ids`;

// Entries after the cursor (exclusive) that are younger than the retention.
const READ = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local floor = now - tonumber(ARGV[2])
local start = '(' .. ARGV[1]
if tonumber(string.match(ARGV[1], '^(%d+)')) < floor then start = string.format('%d', floor) .. '-0' end
return redis.call('XRANGE', KEYS[1], start, '+', 'COUNT', ARGV[3])`;

const PRESENCE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

export const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

export interface StoredEvent {
  id: string;
  event: WireBotEvent;
}

type ScriptedRedis = RedisClient & {
  sdkEventAppendOnce(events: string, presence: string, dedupe: string, event: string, maxLen: number, retentionMs: number, channel: string, deduped: '0' | '1'): Promise<[string, number, number]>;
  sdkEventAppendMany(keyCount: number, ...keysThenArgs: Array<string | number>): Promise<string[]>;
  sdkEventRead(events: string, cursor: string, retentionMs: number, count: number): Promise<Array<[string, string[]]>>;
  sdkPresence(presence: string, connectionId: string, ttlMs: number): Promise<number>;
};

/** Bot → app events of each bot user, kept in Redis until acked (bounded by age and count), and user presence. */
@Injectable()
export class SdkEventStore {
  private readonly redis: ScriptedRedis;

  constructor(
    @Inject(REQUEST_REDIS) redis: RedisClient,
    private readonly env: SdkEnv,
    private readonly core: CoreEnv,
  ) {
    if (!('sdkEventAppendOnce' in redis)) {
      redis.defineCommand('sdkEventAppendOnce', { numberOfKeys: 3, lua: APPEND });
      redis.defineCommand('sdkEventAppendMany', { lua: APPEND_MANY }); // the key count leads the arguments
      redis.defineCommand('sdkEventRead', { numberOfKeys: 1, lua: READ });
      redis.defineCommand('sdkPresence', { numberOfKeys: 1, lua: PRESENCE });
    }
    this.redis = redis as ScriptedRedis;
  }

  /** Pub/sub channel that tells every replica a user has new events. */
  channel(botId: string, userId: string): string {
    return sdkNotifyChannel(this.core, botId, userId);
  }

  private keys(botId: string, userId: string) {
    return sdkUserKeys(this.core, botId, userId);
  }

  /**
   * Stores the event and notifies the replicas; `live` counts the user's connected streams. With
   * `dedupeId`, an event appended under that id within the retention is not appended again: `duplicate`
   * says so and `id` is the first append's.
   */
  async append(botId: string, userId: string, event: WireBotEvent, options: { dedupeId?: string } = {}): Promise<{ id: string; live: number; duplicate: boolean }> {
    const { events, presence } = this.keys(botId, userId);
    // Without an id the marker key is only named (Redis Cluster wants every key of a script declared), never written.
    const dedupe = sdkEventDedupeKey(this.core, botId, userId, options.dedupeId ?? '-');
    const [id, live, duplicate] = await this.timed(
      this.redis.sdkEventAppendOnce(
        events,
        presence,
        dedupe,
        JSON.stringify(event),
        this.env.SDK_EVENT_MAX_PER_USER,
        this.env.SDK_EVENT_RETENTION_SECONDS * 1000,
        this.channel(botId, userId),
        options.dedupeId ? '1' : '0',
      ),
      'storing the event',
    );
    return { id, live: Number(live), duplicate: Number(duplicate) === 1 };
  }

  /**
   * Stores several events of one user in order, those with a dedupe id once under it (as `append`), in
   * one round trip; the stream ids, in order (a repeated one's first id).
   */
  async appendMany(botId: string, userId: string, items: ReadonlyArray<{ event: WireBotEvent; dedupeId?: string }>): Promise<string[]> {
    if (items.length === 0) return [];
    const { events } = this.keys(botId, userId);
    // Redis Cluster wants every key a script touches declared: an event without an id names an unused marker.
    const markers = items.map((i) => sdkEventDedupeKey(this.core, botId, userId, i.dedupeId ?? '-'));
    return this.timed(
      this.redis.sdkEventAppendMany(
        1 + markers.length,
        events,
        ...markers,
        this.env.SDK_EVENT_MAX_PER_USER,
        this.env.SDK_EVENT_RETENTION_SECONDS * 1000,
        this.channel(botId, userId),
        ...items.flatMap((i) => [i.dedupeId === undefined ? '0' : '1', JSON.stringify(i.event)]),
      ),
      'storing the events',
    );
  }

  /** Up to `count` unacked events after `cursor` (a stream id; '0-0' for all), oldest first. */
  async readAfter(botId: string, userId: string, cursor: string, count: number): Promise<StoredEvent[]> {
    const { events } = this.keys(botId, userId);
    const rows = await this.timed(this.redis.sdkEventRead(events, cursor, this.env.SDK_EVENT_RETENTION_SECONDS * 1000, count), 'reading events');
    return rows.map(([id, fields]) => ({ id, event: JSON.parse(fields[fields.indexOf('e') + 1]) as WireBotEvent }));
  }

  /** Drops an acked event; ids that are not stream ids are ignored. */
  async ack(botId: string, userId: string, id: string): Promise<void> {
    if (!STREAM_ID.test(id)) return;
    await this.timed(this.redis.xdel(this.keys(botId, userId).events, id), 'acking an event');
  }

  /** Marks a connection live for `ttlMs` (refreshed by its heartbeat). */
  async markLive(botId: string, userId: string, connectionId: string, ttlMs: number): Promise<void> {
    await this.timed(this.redis.sdkPresence(this.keys(botId, userId).presence, connectionId, ttlMs), 'marking presence');
  }

  async markGone(botId: string, userId: string, connectionId: string): Promise<void> {
    await this.timed(this.redis.zrem(this.keys(botId, userId).presence, connectionId), 'clearing presence');
  }

  private timed<T>(promise: Promise<T>, what: string): Promise<T> {
    return withTimeout(promise, this.core.REDIS_COMMAND_TIMEOUT_MS, what);
  }
}
