import { Inject, Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { MESSAGE_STREAM_TICKET_TTL_SECONDS } from '@platform/contracts';
import { randomToken, sha256Hex } from '@platform/crypto';
import { REQUEST_REDIS, type RedisClient, consoleStreamTicketKey, withTimeout } from '@platform/queue';

export interface TicketHolder {
  userId: string;
  botId: string;
  /** A builder test's trace stream: the ticket opens that test's stream only. */
  conversationId?: string;
}

/**
 * Tickets that open the message log's live stream. An EventSource cannot send headers, so the stream is
 * opened with `?ticket=`: a random value that lives 30 s and is deleted by its first use, so a copy in a
 * log or history opens nothing. Redis holds only its hash.
 */
@Injectable()
export class StreamTicketStore {
  constructor(
    @Inject(REQUEST_REDIS) private readonly redis: RedisClient,
    private readonly core: CoreEnv,
  ) {}

  async issue(holder: TicketHolder): Promise<string> {
    const ticket = `bst_${randomToken(32)}`;
    const write = this.redis.set(this.key(ticket), JSON.stringify(holder), 'EX', MESSAGE_STREAM_TICKET_TTL_SECONDS);
    await withTimeout(write, this.core.REDIS_COMMAND_TIMEOUT_MS, 'storing a stream ticket');
    return ticket;
  }

  /** The ticket's holder, once: the ticket is gone after this call. Null when unknown, expired or used. */
  async redeem(ticket: string): Promise<TicketHolder | null> {
    if (!/^bst_[A-Za-z0-9_-]{43}$/.test(ticket)) return null;
    const raw = await withTimeout(this.redis.getdel(this.key(ticket)), this.core.REDIS_COMMAND_TIMEOUT_MS, 'redeeming a stream ticket');
    return raw ? (JSON.parse(raw) as TicketHolder) : null;
  }

  private key(ticket: string): string {
    return consoleStreamTicketKey(this.core, sha256Hex(ticket));
  }
}
