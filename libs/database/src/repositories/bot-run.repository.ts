import { Injectable } from '@nestjs/common';
import type { BotDefinition, BotOutput, BotReply, BotRunState, BotStepRecord, BotTurnInput, MessageContent, OutboundMessageType } from '@platform/contracts';
import type { ConversationChannel } from '../generated/enums.js';
import type { Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';
import type { ConversationMessageRow } from './conversation.repository.js';

/** What the runtime reads of a conversation: where replies go and whether WhatsApp still takes them. */
export interface BotRunConversation {
  id: string;
  botId: string;
  channel: ConversationChannel;
  userId: string;
  senderId: string | null;
  lastInboundAt: Date | null;
}

/** An input not processed yet (`bot_inputs`), as the engine takes it. */
export interface PendingBotInput {
  seq: bigint;
  input: BotTurnInput;
}

/** What one processed input leaves: the state after it (null: no journey runs), its outputs and steps, the version it ran on. */
export interface ProcessedBotInput {
  state: BotRunState | null;
  outputs: BotOutput[];
  steps: BotStepRecord[];
  /** The version the input ran on; null when the bot had none published (nothing ran). */
  version: number | null;
}

/** A turn's output not handed to the reply path yet (`bot_outbox`), in order. */
export type BotOutboxItem = { id: string; seq: bigint; conversationId: string; botId: string } & ({ kind: 'reply'; messageId: string } | { kind: 'event'; event: Prisma.JsonValue });

/**
 * The conversation locked for one turn (its state row `FOR UPDATE`): the state, the inputs waiting
 * in order, and `record` to store what each input left. All of it commits together or not at all.
 */
export interface LockedBotTurn {
  readonly state: BotRunState | null;
  /**
   * An agent took the conversation over before any journey ran (its row says `handoff` with no
   * journey): the bot stays silent until a handback, which has no handoff node to go on from.
   */
  readonly bareHandoff: boolean;
  readonly inputs: readonly PendingBotInput[];
  /** These read on the turn's own connection: a turn never waits for a second one (a pool of turns would wait on each other). */
  publishedVersion(): Promise<number | null>;
  definition(version: number): Promise<BotDefinition | null>;
  sealedSecrets(): Promise<Array<{ name: string; valueEncrypted: string }>>;
  /** Stores what `input` left: the new state, its replies (queued rows), its outbox items in output order, its steps; marks it processed. */
  record(input: PendingBotInput, processed: ProcessedBotInput): Promise<void>;
  /** Marks `input` processed and changes nothing else (the bot stays silent). */
  skip(input: PendingBotInput): Promise<void>;
}

/** Inputs taken in one transaction at most: a long backlog commits (and hands its replies over) in slices. */
export const MAX_INPUTS_PER_TURN = 20;

/**
 * How long a turn's transaction may stay open: its inputs run the engine (sandboxed functions, http
 * calls of up to 10 s each) inside it. Past this Prisma rolls it back and the job is retried.
 */
const TURN_TRANSACTION_TIMEOUT_MS = 5 * 60_000;

interface StateRow {
  status: string;
  version: number | null;
  journey: string | null;
  node: string | null;
  variables: Prisma.JsonValue;
  retries: number;
  payload: string | null;
}

interface InputRow {
  seq: bigint;
  kind: string;
  payload: string | null;
  journey_slug: string | null;
  content: Prisma.JsonValue | null;
}

/**
 * The bot runtime's storage: per conversation, one transaction per turn that locks the state row and
 * writes the turn's state, replies, outbox, steps and processed inputs together (the outbox is what
 * makes handing replies over after the commit safe: a runtime that dies in between leaves it to the
 * next run, which hands it over with the same ids).
 */
@Injectable()
export class BotRunRepository {
  constructor(private readonly db: PrismaService) {}

  conversation(conversationId: string): Promise<BotRunConversation | null> {
    return this.db.conversation.findUnique({
      where: { id: conversationId },
      select: { id: true, botId: true, channel: true, userId: true, senderId: true, lastInboundAt: true },
    });
  }

  /** The conversation's outbox in the order the outputs were made. */
  async outbox(conversationId: string): Promise<BotOutboxItem[]> {
    const rows = await this.db.botOutboxItem.findMany({ where: { conversationId }, orderBy: { seq: 'asc' } });
    return rows.map((r) =>
      r.kind === 'reply'
        ? { id: r.id, seq: r.seq, conversationId: r.conversationId, botId: r.botId, kind: 'reply' as const, messageId: r.messageId! }
        : { id: r.id, seq: r.seq, conversationId: r.conversationId, botId: r.botId, kind: 'event' as const, event: r.event },
    );
  }

  /** Removes a handed-over item; one removed already (by a replica) is no error. */
  async deleteOutboxItem(id: string): Promise<void> {
    await this.db.botOutboxItem.deleteMany({ where: { id } });
  }

  /** A reply row written by a turn. */
  message(id: string): Promise<ConversationMessageRow | null> {
    return this.db.conversationMessage.findUnique({ where: { id } });
  }

  /**
   * Whether an outbound message before `seq` in the conversation, written after `since`, is still being
   * sent (queued or processing).
   */
  async hasUnsentBefore(conversationId: string, seq: bigint, since: Date): Promise<boolean> {
    const earlier = await this.db.conversationMessage.findFirst({
      where: { conversationId, direction: 'outbound', status: { in: ['queued', 'processing'] }, seq: { lt: seq }, createdAt: { gt: since } },
      select: { id: true },
    });
    return earlier !== null;
  }

  /**
   * Runs `work` with the conversation locked: its state row is created when missing and taken
   * `FOR UPDATE`, so turns of one conversation run one after another across replicas (a second one
   * waits here, then finds the inputs processed). Up to MAX_INPUTS_PER_TURN unprocessed inputs are
   * read in order. Null when the conversation is gone (erased).
   */
  async withTurn<T>(conversationId: string, botId: string, work: (turn: LockedBotTurn) => Promise<T>): Promise<T | null> {
    return this.db.$transaction(
      async (tx) => {
        // A key-share lock: the conversation cannot be erased under the turn (its inputs and outbox would go with it).
        const exists = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "conversations" WHERE "id" = ${conversationId}::uuid FOR KEY SHARE`;
        if (exists.length === 0) return null;
        await tx.$executeRaw`INSERT INTO "bot_conversation_states" ("conversation_id", "bot_id", "status", "updated_at")
          VALUES (${conversationId}::uuid, ${botId}::uuid, 'ended', now()) ON CONFLICT ("conversation_id") DO NOTHING`;
        const [row] = await tx.$queryRaw<StateRow[]>`SELECT "status", "version", "journey", "node", "variables", "retries", "payload"
          FROM "bot_conversation_states" WHERE "conversation_id" = ${conversationId}::uuid FOR UPDATE`;
        const inputs = await tx.$queryRaw<InputRow[]>`SELECT i."seq", i."kind", i."payload", i."journey_slug", m."content"
          FROM "bot_inputs" AS i LEFT JOIN "conversation_messages" AS m ON m."id" = i."message_id"
          WHERE i."conversation_id" = ${conversationId}::uuid AND i."processed_at" IS NULL
          ORDER BY i."seq" LIMIT ${MAX_INPUTS_PER_TURN}`;
        let touched = false;
        const turn: LockedBotTurn = {
          state: toRunState(row),
          bareHandoff: row.status === 'handoff' && toRunState(row) === null,
          skip: async (input) => void (await tx.botInput.update({ where: { seq: input.seq }, data: { processedAt: new Date() } })),
          inputs: inputs.map((i) => ({ seq: i.seq, input: toTurnInput(i) })),
          publishedVersion: async () => (await tx.botDefinitionDraft.findUnique({ where: { botId }, select: { publishedVersion: true } }))?.publishedVersion ?? null,
          definition: async (version) => {
            const found = await tx.botVersion.findUnique({ where: { botId_version: { botId, version } }, select: { definition: true } });
            return found ? (found.definition as unknown as BotDefinition) : null;
          },
          sealedSecrets: () => tx.botSecret.findMany({ where: { botId }, select: { name: true, valueEncrypted: true }, orderBy: { name: 'asc' } }),
          record: async (input, processed) => {
            const state = processed.state;
            await tx.botConversationState.update({
              where: { conversationId },
              data: state
                ? {
                    status: state.status,
                    version: state.version,
                    journey: state.journey,
                    node: state.node,
                    variables: state.variables as Prisma.InputJsonValue,
                    retries: state.retries,
                    payload: state.payload,
                    turns: { increment: 1 },
                  }
                : { status: 'ended', version: null, journey: null, node: null, variables: {}, retries: 0, payload: null, turns: { increment: 1 } },
            });
            for (const output of processed.outputs) {
              if (output.kind === 'reply') {
                if (!touched) {
                  // As createOutbound: a conversation the bot writes into is in use (the retention sweep spares it).
                  await tx.conversation.update({ where: { id: conversationId }, data: { updatedAt: new Date() } });
                  touched = true;
                }
                const { type, content } = replyContent(output.reply);
                const message = await tx.conversationMessage.create({
                  data: { conversationId, direction: 'outbound', type, content: content as Prisma.InputJsonValue, status: 'queued' },
                  select: { id: true },
                });
                await tx.botOutboxItem.create({ data: { conversationId, botId, kind: 'reply', messageId: message.id } });
              } else if (output.kind === 'event') {
                await tx.botOutboxItem.create({ data: { conversationId, botId, kind: 'event', event: output.event as unknown as Prisma.InputJsonValue } });
              }
            }
            if (processed.steps.length > 0 && processed.version !== null) {
              await tx.botStep.createMany({
                data: processed.steps.map((s) => ({
                  conversationId,
                  botId,
                  version: processed.version!,
                  inputSeq: input.seq,
                  journey: s.journey,
                  node: s.node,
                  kind: s.kind,
                  outcome: s.outcome,
                  error: s.error ?? null,
                  durationMs: s.durationMs,
                  sandboxMs: s.sandboxMs ?? null,
                  startedAt: s.startedAt,
                })),
              });
            }
            await tx.botInput.update({ where: { seq: input.seq }, data: { processedAt: new Date() } });
          },
        };
        return work(turn);
      },
      { maxWait: 10_000, timeout: TURN_TRANSACTION_TIMEOUT_MS },
    );
  }
}

/** The locked row as the engine's state: null while no journey runs. */
function toRunState(row: StateRow): BotRunState | null {
  if (row.status === 'ended' || row.version === null || row.journey === null || row.node === null) return null;
  return {
    version: row.version,
    journey: row.journey,
    node: row.node,
    status: row.status as BotRunState['status'],
    variables: (row.variables ?? {}) as Record<string, unknown>,
    retries: row.retries,
    payload: row.payload,
  };
}

/** A stored input as the engine takes it; a message's text and payload come from its row (gone when erased: then neither). */
function toTurnInput(row: InputRow): BotTurnInput {
  if (row.kind === 'start') return { kind: 'start', payload: row.payload, ...(row.journey_slug ? { journeySlug: row.journey_slug } : {}) };
  if (row.kind === 'handback') return { kind: 'handback' };
  const content = (row.content ?? {}) as MessageContent;
  return {
    kind: 'message',
    ...(typeof content.text === 'string' ? { text: content.text } : {}),
    ...(typeof content.payload === 'string' ? { payload: content.payload } : {}),
  };
}

/** A reply as a conversation message: the type and content the reply API stores for the same body. */
export function replyContent(reply: BotReply): { type: OutboundMessageType; content: MessageContent } {
  if ('text' in reply) return { type: 'text', content: { text: reply.text, ...(reply.quickReplies?.length ? { quickReplies: reply.quickReplies } : {}) } };
  if ('image' in reply) return { type: 'image', content: { image: reply.image } };
  return { type: 'carousel', content: { cards: reply.cards } };
}
