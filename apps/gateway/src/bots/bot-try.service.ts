import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { BotTraceRepository, BotTryRepository } from '@platform/database';
import { BotDefinitionService } from './bot-definition.service.js';
import { BotInputsService } from './bot-inputs.service.js';
import { toStepView } from './step-view.js';

/** The longest message a tester may type (the web chat's own limit). */
const TEXT_MAX = 4096;

/**
 * The builder's try-it (docs/console.md#try-it): the saved draft runs on the real runtime (its queue,
 * sandbox and HTTP caller) in a test conversation, which the overview and the inbox leave out. The
 * console reads the transcript, the node trace and the bot's variables back while the tester types.
 */
@Injectable()
export class BotTryService {
  constructor(
    private readonly tries: BotTryRepository,
    private readonly trace: BotTraceRepository,
    private readonly definitions: BotDefinitionService,
    private readonly inputs: BotInputsService,
  ) {}

  /** Snapshots the draft (checked again: an invalid one is a 400 naming its errors) and starts a test conversation on it. */
  async start(botId: string, memberId: string, payload: unknown): Promise<{ conversationId: string; version: number }> {
    if (payload !== undefined && (payload === null || typeof payload !== 'object' || Array.isArray(payload))) throw new BadRequestException('payload must be a JSON object');
    const started = await this.tries.start(botId, `user:${memberId}`, JSON.stringify(payload ?? {}), (draft) => this.definitions.validate(draft));
    if (!started) throw new ConflictException('The bot has no saved draft to try: save one first');
    await this.inputs.wake(botId, started.conversationId, started.seq);
    return { conversationId: started.conversationId, version: started.version };
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
    const [messages, steps, state] = await Promise.all([this.tries.messages(conversationId), this.trace.steps(conversationId, null, 200), this.trace.state(conversationId)]);
    return {
      conversationId,
      version: test.testVersion,
      messages: messages.map((m) => ({ id: m.id, direction: m.direction, type: m.type, content: m.content, status: m.status, at: m.createdAt.toISOString() })),
      trace: steps.map(toStepView),
      state: state ? { status: state.status, journey: state.journey, node: state.node, variables: state.variables, at: state.updatedAt.toISOString() } : null,
    };
  }

  private async require(botId: string, conversationId: string) {
    const found = /^[0-9a-f-]{36}$/i.test(conversationId) ? await this.tries.find(botId, conversationId) : null;
    if (!found) throw new NotFoundException(`Bot ${botId} has no test conversation ${conversationId}`);
    return found;
  }
}
