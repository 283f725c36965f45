import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { CoreEnv, SdkEnv } from '@platform/config';
import { STREAM_CLOSE } from '@platform/contracts';
import { type RedisClient, connectRedis, withTimeout } from '@platform/queue';
import { SdkSessionService } from '../sdk-sessions/sdk-session.service.js';
import { SdkEventStore } from '@platform/conversations';
import { StreamConnection, StreamDeps } from './stream-connection.js';

interface Channel {
  connections: Set<StreamConnection>;
  subscribed: Promise<unknown>;
}

/**
 * This replica's event-stream connections. A Redis channel per bot user announces new events; the
 * replica subscribes while it holds a connection of that user and tells those connections to pull.
 */
@Injectable()
export class StreamHub implements BeforeApplicationShutdown {
  private readonly logger = new Logger('SdkEventStream');
  private readonly channels = new Map<string, Channel>();
  private readonly touchedAt = new WeakMap<StreamConnection, number>();
  private readonly subscriber: RedisClient;
  private stopped = false;
  readonly deps: StreamDeps;

  constructor(
    private readonly env: SdkEnv,
    private readonly core: CoreEnv,
    private readonly store: SdkEventStore,
    private readonly sessions: SdkSessionService,
  ) {
    this.subscriber = connectRedis(this.core, {
      connectionName: 'gateway-sdk-events',
      lazyConnect: true,
      maxRetriesPerRequest: null,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.subscriber.on('error', (err: Error) => this.logger.debug(`subscriber: ${err.message}`));
    this.subscriber.on('message', (channel: string) => this.channels.get(channel)?.connections.forEach((c) => c.pull()));
    // After a reconnect (ioredis resubscribes by itself) announcements may have been missed.
    this.subscriber.on('ready', () => this.channels.forEach((ch) => ch.connections.forEach((c) => c.pull())));
    this.deps = {
      authTimeoutMs: env.SDK_STREAM_AUTH_TIMEOUT_MS,
      pingIntervalMs: env.SDK_STREAM_PING_INTERVAL_MS,
      authenticate: async (botId, sessionId, token) => {
        const result = await this.sessions.check(botId, sessionId, token);
        if (typeof result === 'string') return result;
        await this.sessions.touch(result.id);
        return { userId: result.userId };
      },
      register: (c) => this.register(c),
      unregister: (c) => void this.unregister(c),
      heartbeat: (c) => this.heartbeat(c),
      read: (botId, userId, cursor, count) => this.store.readAfter(botId, userId, cursor, count),
      ack: (botId, userId, id) => this.store.ack(botId, userId, id),
      log: (level, message) => this.logger[level](message),
    };
  }

  /** Presence outlives two missed heartbeats, so a crashed replica's connections stop counting soon after. */
  private get presenceTtlMs(): number {
    return this.env.SDK_STREAM_PING_INTERVAL_MS * 2 + 5000;
  }

  private async register(connection: StreamConnection): Promise<void> {
    const name = this.store.channel(connection.botId, connection.userId);
    let channel = this.channels.get(name);
    if (!channel) {
      channel = { connections: new Set(), subscribed: this.subscriber.subscribe(name) };
      channel.subscribed.catch(() => undefined);
      this.channels.set(name, channel);
    }
    channel.connections.add(connection);
    try {
      await withTimeout(channel.subscribed, this.core.REDIS_COMMAND_TIMEOUT_MS, 'subscribing to the user events');
      await this.store.markLive(connection.botId, connection.userId, connection.id, this.presenceTtlMs);
      this.touchedAt.set(connection, Date.now());
    } catch (err) {
      await this.unregister(connection);
      throw err;
    }
  }

  private async unregister(connection: StreamConnection): Promise<void> {
    const name = this.store.channel(connection.botId, connection.userId);
    const channel = this.channels.get(name);
    if (channel?.connections.delete(connection) && channel.connections.size === 0) {
      this.channels.delete(name);
      this.subscriber.unsubscribe(name).catch(() => undefined);
    }
    await this.store.markGone(connection.botId, connection.userId, connection.id).catch((err: Error) => this.logger.debug(`clearing presence failed: ${err.message}`));
  }

  private async heartbeat(connection: StreamConnection): Promise<void> {
    await this.store.markLive(connection.botId, connection.userId, connection.id, this.presenceTtlMs);
    // Session expiry slides while the stream is open, written at most every quarter TTL (max hourly).
    const every = Math.min(this.env.SDK_SESSION_TTL_SECONDS * 250, 3_600_000);
    if (Date.now() - (this.touchedAt.get(connection) ?? 0) >= every) {
      this.touchedAt.set(connection, Date.now());
      await this.sessions.touch(connection.sessionId);
    }
  }

  /** Connections of this replica (for shutdown and tests). */
  connections(): StreamConnection[] {
    return [...this.channels.values()].flatMap((c) => [...c.connections]);
  }

  async beforeApplicationShutdown() {
    if (this.stopped) return;
    this.stopped = true;
    // 1001: the SDK reconnects, and reaches another replica.
    const open = this.connections();
    const gone = open.map((c) => this.store.markGone(c.botId, c.userId, c.id).catch(() => undefined));
    for (const c of open) c.close(STREAM_CLOSE.goingAway, 'server shutting down');
    await withTimeout(Promise.all(gone), 2000, 'clearing presence').catch(() => undefined);
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
