import { BadRequestException, BeforeApplicationShutdown, ConflictException, ForbiddenException, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UserService, roleRank } from '@platform/accounts';
import { AuthEnv } from '@platform/config';
import { MESSAGE_STREAM_TICKET_TTL_SECONDS, chatUserId } from '@platform/contracts';
import { randomToken } from '@platform/crypto';
import { BotTraceRepository, BotTryRepository, BotTryStepFeed } from '@platform/database';
import type { BotStepRow } from '@platform/database';
import { ConsoleEventStreams } from '../message-stream/console-event-streams.js';
import type { ServerSentEvents } from '../message-stream/server-sent-events.js';
import { StreamTicketStore } from '../message-stream/stream-ticket.store.js';
import { BotDefinitionService } from './bot-definition.service.js';
import { BotInputsService } from './bot-inputs.service.js';
import { toStepView } from './step-view.js';

/** The longest message a tester may type (the web chat's own limit). */
const TEXT_MAX = 4096;

/** A step as the try-it trace shows it: the trace API's fields and the variables the step left. */
export function toTryStepView(s: BotStepRow) {
  return { ...toStepView(s), variables: (s.variables ?? null) as Record<string, unknown> | null };
}

/**
 * The builder's try-it (docs/console.md#try-it): the saved draft runs on the real runtime (its queue,
 * sandbox and HTTP caller) in a test conversation, which the overview and the inbox leave out. The
 * console shows the conversation in the hosted chat page (an iframe opened with the test's own chat
 * token, as any chat user's) and follows the node trace on a Server-Sent Events stream.
 */
@Injectable()
export class BotTryService implements BeforeApplicationShutdown {
  private readonly streams: ConsoleEventStreams;

  constructor(
    private readonly tries: BotTryRepository,
    private readonly trace: BotTraceRepository,
    private readonly definitions: BotDefinitionService,
    private readonly inputs: BotInputsService,
    private readonly feed: BotTryStepFeed,
    private readonly tickets: StreamTicketStore,
    private readonly users: UserService,
    auth: AuthEnv,
  ) {
    this.streams = new ConsoleEventStreams(auth.AUTH_ACCESS_TOKEN_TTL_SECONDS * 1000);
  }

  /**
   * Snapshots the draft (checked again: an invalid one is a 400 naming its errors) and starts a test
   * conversation on it. Its chat user is a new random chat token, answered once: the hosted chat page
   * opened with it (`chatUrl`) is that user's, and reaches this conversation only.
   */
  async start(botId: string, memberId: string, payload: unknown): Promise<{ conversationId: string; version: number; chatUrl: string }> {
    if (payload !== undefined && (payload === null || typeof payload !== 'object' || Array.isArray(payload))) throw new BadRequestException('payload must be a JSON object');
    const chatToken = randomToken(24);
    const started = await this.tries.start(botId, `user:${memberId}`, JSON.stringify(payload ?? {}), (draft) => this.definitions.validate(draft), chatUserId(chatToken));
    if (!started) throw new ConflictException('The bot has no saved draft to try: save one first');
    await this.inputs.wake(botId, started.conversationId, started.seq);
    // The token rides in the fragment, which the browser never sends; the page takes a session with it.
    const chatUrl = `/web/bot?botId=${encodeURIComponent(botId)}&enableSpeech=false#ymAuthenticationToken=${chatToken}`;
    return { conversationId: started.conversationId, version: started.version, chatUrl };
  }

  /** The tester's message (text, or a quick reply's title and payload) as the bot's next input. */
  async message(botId: string, conversationId: string, body: { text?: unknown; payload?: unknown } | undefined): Promise<void> {
    const text = typeof body?.text === 'string' ? body.text.trim() : '';
    if (!text) throw new BadRequestException('text is required: what the tester writes');
    if (text.length > TEXT_MAX) throw new BadRequestException(`text must be at most ${TEXT_MAX} characters`);
    if (body?.payload !== undefined && (typeof body.payload !== 'string' || body.payload.length > 1000)) throw new BadRequestException('payload must be a string of at most 1000 characters');
    await this.require(botId, conversationId);
    const seq = await this.tries.message(botId, conversationId, { text, ...(typeof body?.payload === 'string' ? { payload: body.payload } : {}) });
    await this.inputs.wake(botId, conversationId, seq);
  }

  /** The test conversation as the try-it pane shows it: transcript, trace (oldest first), and where the bot is with its variables. */
  async view(botId: string, conversationId: string) {
    const test = await this.require(botId, conversationId);
    const [messages, steps, state] = await Promise.all([this.tries.messages(conversationId), this.trace.testSteps(conversationId, null, 200), this.trace.state(conversationId)]);
    return {
      conversationId,
      version: test.testVersion,
      messages: messages.map((m) => ({ id: m.id, direction: m.direction, type: m.type, content: m.content, status: m.status, at: m.createdAt.toISOString() })),
      trace: steps.map(toTryStepView),
      state: state ? { status: state.status, journey: state.journey, node: state.node, variables: state.variables, at: state.updatedAt.toISOString() } : null,
    };
  }

  /** A single-use ticket (30 s) for the test's trace stream: an EventSource cannot send the access token. */
  async streamTicket(botId: string, conversationId: string, memberId: string) {
    await this.require(botId, conversationId);
    const ticket = await this.tickets.issue({ userId: memberId, botId, conversationId });
    return { ticket, expiresIn: MESSAGE_STREAM_TICKET_TTL_SECONDS, url: `/v1/bots/${botId}/builder/try/${conversationId}/stream?ticket=${ticket}` };
  }

  /**
   * The test's node trace as Server-Sent Events: `step` for each step (those already there first, then
   * each as its turn commits, told by Postgres NOTIFY: no polling), `end` before the server closes it
   * (after an access token's lifetime, or at shutdown). The ticket must be this test's, its holder still a developer.
   */
  async stream(botId: string, conversationId: string, ticket: unknown, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const holder = typeof ticket === 'string' ? await this.tickets.redeem(ticket) : null;
    if (!holder || holder.botId !== botId || holder.conversationId !== conversationId) {
      throw new UnauthorizedException('ticket is missing, expired, already used or for another test (POST .../builder/try/{id}/stream-ticket gives one)');
    }
    const role = await this.users.roleOn(holder.userId, botId);
    if (!role || roleRank(role) < roleRank('developer')) throw new ForbiddenException('This operation needs the developer role on this bot');
    await this.require(botId, conversationId);

    let sse: ServerSentEvents | null = null;
    let last: bigint | null = null;
    let reading: Promise<void> = Promise.resolve();
    // One read at a time, each from the last step sent: a notification during a read is read after it.
    const readNew = () => {
      reading = reading
        .then(async () => {
          if (!sse?.open) return;
          for (;;) {
            const steps = await this.trace.testSteps(conversationId, last, 200);
            for (const step of steps) sse.send('step', toTryStepView(step));
            if (steps.length > 0) last = steps[steps.length - 1]!.id;
            if (steps.length < 200) return;
          }
        })
        .catch(() => undefined);
    };
    const unsubscribe = await this.feed.subscribe(conversationId, readNew);
    sse = this.streams.start(req, reply, unsubscribe);
    if (sse) readNew();
  }

  beforeApplicationShutdown(): void {
    this.streams.endAll('the server is shutting down');
  }

  private async require(botId: string, conversationId: string) {
    const found = /^[0-9a-f-]{36}$/i.test(conversationId) ? await this.tries.find(botId, conversationId) : null;
    if (!found) throw new NotFoundException(`Bot ${botId} has no test conversation ${conversationId}`);
    return found;
  }
}
