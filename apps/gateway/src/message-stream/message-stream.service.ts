import { BeforeApplicationShutdown, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UserService } from '@platform/accounts';
import { AuthEnv } from '@platform/config';
import { MESSAGE_STREAM_TICKET_TTL_SECONDS, MessageStreamTicketResponse } from '@platform/contracts';
import { ConsoleEventStreams } from './console-event-streams.js';
import type { ServerSentEvents } from './server-sent-events.js';
import { MessageEventFeed } from './message-event-feed.js';
import { StreamTicketStore } from './stream-ticket.store.js';

/** The message log's live stream: tickets, and the Server-Sent Events answers fed from MessageEventFeed. */
@Injectable()
export class MessageStreamService implements BeforeApplicationShutdown {
  private readonly streams: ConsoleEventStreams;

  constructor(
    private readonly tickets: StreamTicketStore,
    private readonly feed: MessageEventFeed,
    private readonly users: UserService,
    auth: AuthEnv,
  ) {
    this.streams = new ConsoleEventStreams(auth.AUTH_ACCESS_TOKEN_TTL_SECONDS * 1000);
  }

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

    let sse: ServerSentEvents | null = null;
    const unsubscribe = await this.feed.subscribe(botId, (event) => sse?.send('status', event));
    sse = this.streams.start(req, reply, unsubscribe);
  }

  /** Open streams (for tests). */
  get openStreams(): number {
    return this.streams.size;
  }

  beforeApplicationShutdown(): void {
    this.streams.endAll('the server is shutting down');
  }
}
