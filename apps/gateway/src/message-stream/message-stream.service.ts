import { BeforeApplicationShutdown, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UserService } from '@platform/accounts';
import { AuthEnv } from '@platform/config';
import { MESSAGE_STREAM_TICKET_TTL_SECONDS, MessageStreamEnd, MessageStreamTicketResponse } from '@platform/contracts';
import { MessageEventFeed } from './message-event-feed.js';
import { ServerSentEvents } from './server-sent-events.js';
import { StreamTicketStore } from './stream-ticket.store.js';

const PING_MS = 20_000;

/** The message log's live stream: tickets, and the Server-Sent Events answers fed from MessageEventFeed. */
@Injectable()
export class MessageStreamService implements BeforeApplicationShutdown {
  private readonly open = new Set<() => void>();

  constructor(
    private readonly tickets: StreamTicketStore,
    private readonly feed: MessageEventFeed,
    private readonly users: UserService,
    private readonly auth: AuthEnv,
  ) {}

  async ticket(userId: string, botId: string): Promise<MessageStreamTicketResponse> {
    const ticket = await this.tickets.issue({ userId, botId });
    return { ticket, expiresIn: MESSAGE_STREAM_TICKET_TTL_SECONDS, url: `/v1/bots/${botId}/messages/stream?ticket=${ticket}` };
  }

  /**
   * Answers with the stream when the ticket is good for this bot and its holder still has a role on it.
   * The stream lasts at most an access token's lifetime, so it never outlives the sign-in that asked for
   * it by much: then it sends `end` and closes, and the console asks for a new ticket with a fresh token.
   */
  async stream(botId: string, ticket: unknown, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const holder = typeof ticket === 'string' ? await this.tickets.redeem(ticket) : null;
    if (!holder || holder.botId !== botId || holder.conversationId !== undefined) {
      throw new UnauthorizedException('ticket is missing, expired, already used or for another bot (POST .../messages/stream-ticket gives one)');
    }
    if (!(await this.users.roleOn(holder.userId, botId))) throw new ForbiddenException('This operation needs the viewer role on this bot');

    let sse: ServerSentEvents | undefined;
    const unsubscribe = await this.feed.subscribe(botId, (event) => sse?.send('status', event));
    reply.hijack();
    sse = new ServerSentEvents(reply.raw);
    const events = sse;
    const finish = (reason?: string) => {
      if (!this.open.delete(finish)) return;
      clearInterval(ping);
      clearTimeout(lifetime);
      unsubscribe();
      if (reason) events.send('end', { reason } satisfies MessageStreamEnd);
      events.end();
    };
    const ping = setInterval(() => events.ping(), PING_MS);
    const lifetime = setTimeout(() => finish('the stream lasts as long as an access token: open a new one'), this.auth.AUTH_ACCESS_TOKEN_TTL_SECONDS * 1000);
    this.open.add(finish);
    reply.raw.on('close', () => finish());
    // The client may have left while the feed was starting: its 'close' has come and gone.
    if (reply.raw.destroyed || req.raw.destroyed) return finish();
    events.send('ready', {});
  }

  /** Open streams (for tests). */
  get openStreams(): number {
    return this.open.size;
  }

  beforeApplicationShutdown(): void {
    for (const finish of [...this.open]) (finish as (reason?: string) => void)('the server is shutting down');
  }
}
