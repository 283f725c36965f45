import { Injectable } from '@nestjs/common';
import { CoreEnv } from '@platform/config';
import { BotDefinitionRepository, BotInputRepository } from '@platform/database';
import { BotTurnQueue, withTimeout } from '@platform/queue';

/** The bot-turn job of input `seq`: BullMQ refuses integer custom ids, so the seq is prefixed. */
export function botTurnJobId(seq: bigint): string {
  return `input-${seq}`;
}

/** The member of a web session's payload that names the journey to start (the spec's push tap key). */
const JOURNEY_SLUG_MEMBER = 'JourneySlug';

/**
 * What a hosted bot (one with a published version) has to answer: each input is a `bot_inputs` row,
 * then a `turn` job wakes the bot runtime for the conversation. Both are durable before the caller
 * answers 2xx; when queueing fails the caller answers 5xx and the row stays: the runtime takes every
 * unprocessed input of a conversation in order, so the next turn of that conversation (the client's
 * retry, or the user's next message) picks it up.
 *
 * Whether a bot is hosted is read from Postgres each time (several gateway replicas; a publish or
 * rollback takes effect at once on all of them).
 */
/**
 * What became of a user's message: `outside` (not a hosted bot: its webhook gets it), `hosted` (the
 * runtime answers; no webhook, so the message is already recorded as taken), `mirrored` (the runtime
 * answers and the webhook gets it too).
 */
export type HostedMessage = 'outside' | 'hosted' | 'mirrored';

@Injectable()
export class BotInputsService {
  constructor(
    private readonly inputs: BotInputRepository,
    private readonly definitions: BotDefinitionRepository,
    private readonly queue: BotTurnQueue,
    private readonly core: CoreEnv,
  ) {}

  /** Whether the runtime and/or a webhook answer the bot's users; null when there is no such bot. */
  whoAnswers(botId: string): Promise<{ hosted: boolean; webhook: boolean } | null> {
    return this.definitions.whoAnswers(botId);
  }

  async hosted(botId: string): Promise<boolean> {
    return (await this.definitions.publishedVersion(botId)) !== null;
  }

  /** A user's message as a hosted bot's input (a message Meta repeats is one input). */
  async message(botId: string, conversationId: string, messageId: string): Promise<HostedMessage> {
    const input = await this.inputs.addMessage(botId, conversationId, messageId);
    if (!input) return 'outside';
    // A repeat whose input is still waiting is queued again: the first copy's job may have failed to queue (same id: BullMQ keeps one).
    if (input.pending) await this.wake(botId, conversationId, input.seq);
    return input.mirrored ? 'mirrored' : 'hosted';
  }

  /**
   * A web session started: the payload reaches the bot as a JSON string, and its `JourneySlug` member,
   * when a non-blank string, names the journey to start. False when the bot is not hosted.
   */
  async start(botId: string, conversationId: string, payload: Record<string, unknown>): Promise<boolean> {
    const slug = payload[JOURNEY_SLUG_MEMBER];
    const journeySlug = typeof slug === 'string' && slug.trim() !== '' ? slug : null;
    const seq = await this.inputs.addStart(botId, conversationId, JSON.stringify(payload), journeySlug);
    if (seq === null) return false;
    await this.wake(botId, conversationId, seq);
    return true;
  }

  /** An agent hands the conversation back to the bot; 'not_in_handoff' when it was not handed off. */
  async handback(botId: string, conversationId: string): Promise<'queued' | 'not_in_handoff'> {
    const result = await this.inputs.handback(botId, conversationId);
    if (result === 'not_in_handoff') return result;
    await this.wake(botId, conversationId, result.seq);
    return 'queued';
  }

  /** Queues the turn that takes input `seq` (and any earlier one still waiting) of the conversation. */
  async wake(botId: string, conversationId: string, seq: bigint): Promise<void> {
    await withTimeout(this.queue.add('turn', { botId, conversationId }, { jobId: botTurnJobId(seq) }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the bot turn');
  }
}
