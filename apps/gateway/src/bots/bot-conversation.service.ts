import { ConflictException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { isUuid } from '@platform/contracts';
import { BotInputRepository, BotTraceRepository, ConversationRepository, InboxRepository } from '@platform/database';
import { BotInputsService } from './bot-inputs.service.js';
import { ConversationHandoffEvents } from './conversation-handoff-events.js';
import { parseCursor, parseLimit } from './page-query.js';
import { toStepView } from './step-view.js';

/** A hosted bot's side of one conversation: its trace and state, and an agent taking over and handing back. */
@Injectable()
export class BotConversationService {
  private readonly logger = new Logger('BotHandoff');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly trace: BotTraceRepository,
    private readonly inputs: BotInputRepository,
    private readonly botInputs: BotInputsService,
    private readonly events: ConversationHandoffEvents,
    private readonly inbox: InboxRepository,
  ) {}

  /** The steps the bot ran in the conversation, in order, paged by `cursor` (the `next` of the previous page). */
  async steps(botId: string, conversationId: string, cursor: unknown, limit: unknown) {
    const after = parseCursor(cursor);
    const size = parseLimit(limit);
    const id = await this.conversationOf(botId, conversationId);
    const rows = await this.trace.steps(id, after, size + 1);
    const page = rows.slice(0, size);
    return {
      steps: page.map(toStepView),
      next: rows.length > size ? String(page[page.length - 1].id) : null,
    };
  }

  async state(botId: string, conversationId: string) {
    const id = await this.conversationOf(botId, conversationId);
    const state = await this.trace.state(id);
    if (!state) throw new NotFoundException(`The bot has not run in conversation ${conversationId} yet`);
    return { status: state.status, version: state.version, journey: state.journey, node: state.node, variables: state.variables, updatedAt: state.updatedAt.toISOString() };
  }

  /** An agent takes over: the bot stays silent (messages still reach the runtime, which records and skips them) until handed back. */
  async handoff(botId: string, conversationId: string, reason: string | undefined): Promise<void> {
    const conversation = await this.find(botId, conversationId);
    const id = conversation.id;
    await this.requireHosted(botId);
    await this.inputs.handoff(botId, id);
    // The reason has no column: it goes to the log (it is the operator's text, not the user's) and to the event.
    this.logger.log(`conversation ${id} of bot ${botId} handed to an agent${reason ? `: ${reason}` : ''}`);
    await this.events.publish({
      type: 'conversation.handoff',
      botId,
      conversationId: id,
      channel: conversation.channel,
      userId: conversation.userId,
      by: 'api',
      member: null,
      reason: reason ?? null,
      journeySlug: null,
    });
  }

  /** The bot goes on after the handoff node (or ends the journey when that node has no next edge). */
  async handback(botId: string, conversationId: string): Promise<void> {
    const conversation = await this.find(botId, conversationId);
    await this.requireHosted(botId);
    if ((await this.botInputs.handback(botId, conversation.id)) === 'not_in_handoff') {
      throw new ConflictException(`Conversation ${conversationId} is not handed off to an agent: nothing to hand back`);
    }
    const { id, channel, userId } = conversation;
    // The assignment ends, as a hand-back in the console does: the bot's next handoff node waits for any agent again.
    await this.inbox.assign(botId, id, null);
    await this.events.publish({ type: 'conversation.handed_back', botId, conversationId: id, channel, userId, by: 'api', member: null, reason: null, journeySlug: null });
  }

  private async conversationOf(botId: string, conversationId: string): Promise<string> {
    return (await this.find(botId, conversationId)).id;
  }

  private async find(botId: string, conversationId: string) {
    const conversation = isUuid(conversationId) ? await this.conversations.find(botId, conversationId) : null;
    if (!conversation) throw new NotFoundException(`No conversation ${conversationId} for this bot`);
    return conversation;
  }

  private async requireHosted(botId: string): Promise<void> {
    if (!(await this.botInputs.hosted(botId))) throw new ConflictException(`Bot ${botId} is not a hosted bot (no published version): its webhook answers its conversations`);
  }
}
