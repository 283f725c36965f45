import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

/** An input waiting in `bot_inputs` (seq: its place in the conversation's order; the bot-turn job's id). */
export interface QueuedBotInput {
  seq: bigint;
  /** False when the runtime processed it already (a message Meta delivered again). */
  pending: boolean;
  /**
   * The bot has a webhook, which gets the message too (the mirror). Without one the message is recorded
   * as taken by the bot in the same statement, so no callback job is queued only to be dropped.
   */
  mirrored: boolean;
}

export type HandbackResult = { seq: bigint } | 'not_in_handoff';

/** Only a hosted bot (a published version) gets inputs: checked in the statement that inserts, so an unpublish cannot race it. */
/** The bot has a webhook: a hosted bot's messages are mirrored to it. */
const MIRRORED = `EXISTS (SELECT 1 FROM "callback_endpoints" e WHERE e."bot_id" = $1::uuid AND e."kind" = 'webhook')`;
const HOSTED = `EXISTS (SELECT 1 FROM "bot_definitions" d WHERE d."bot_id" = $1::uuid AND d."published_version" IS NOT NULL)`;

/**
 * The gateway's side of a hosted bot's inbox (`bot_inputs`) and of its conversations' state: users'
 * messages, session starts, and an agent's handoff and handback. The runtime takes the inputs in order.
 */
@Injectable()
export class BotInputRepository {
  constructor(private readonly db: PrismaService) {}

  /**
   * A user's message as the bot's input, when the bot is hosted (else null). A message is one input
   * however often it is recorded (Meta's repeats): the second time, the existing row is returned.
   */
  async addMessage(botId: string, conversationId: string, messageId: string): Promise<QueuedBotInput | null> {
    // One round trip for the usual case: the CTE's insert is invisible to the outer SELECT, so its second
    // half finds the row only when the insert met an existing one.
    const { rows } = await this.db.query<{ seq: string; pending: boolean; mirrored: boolean }>({
      name: 'bot-inputs-add-message',
      text: `WITH ins AS (
               INSERT INTO "bot_inputs" ("conversation_id", "bot_id", "kind", "message_id")
               SELECT $2::uuid, $1::uuid, 'message', $3::uuid WHERE ${HOSTED}
               ON CONFLICT ("message_id") DO NOTHING
               RETURNING "seq"),
             settled AS (
               UPDATE "conversation_messages" SET "webhook_settled_at" = now()
               WHERE "id" = $3::uuid AND "webhook_settled_at" IS NULL AND ${HOSTED} AND NOT ${MIRRORED})
             SELECT "seq"::text AS seq, true AS pending, ${MIRRORED} AS mirrored FROM ins
             UNION ALL
             SELECT i."seq"::text, i."processed_at" IS NULL, ${MIRRORED} FROM "bot_inputs" i
             WHERE i."message_id" = $3::uuid AND ${HOSTED} AND NOT EXISTS (SELECT 1 FROM ins)`,
      values: [botId, conversationId, messageId],
    });
    return rows[0] ? { seq: BigInt(rows[0].seq), pending: rows[0].pending, mirrored: rows[0].mirrored } : null;
  }

  /** A web session start (payload: the JSON string the bot receives), when the bot is hosted (else null). */
  async addStart(botId: string, conversationId: string, payload: string, journeySlug: string | null): Promise<bigint | null> {
    const { rows } = await this.db.query<{ seq: string }>({
      name: 'bot-inputs-add-start',
      text: `INSERT INTO "bot_inputs" ("conversation_id", "bot_id", "kind", "payload", "journey_slug")
             SELECT $2::uuid, $1::uuid, 'start', $3, $4 WHERE ${HOSTED}
             RETURNING "seq"::text AS seq`,
      values: [botId, conversationId, payload, journeySlug],
    });
    return rows[0] ? BigInt(rows[0].seq) : null;
  }

  /**
   * An agent takes the conversation over: its state becomes `handoff` (the bot stays silent), created
   * when the conversation has none yet. Written under the state row's lock (`SELECT ... FOR UPDATE`),
   * the lock the runtime holds through a turn, so a turn running meanwhile finishes first and the next
   * one sees the handoff.
   */
  async handoff(botId: string, conversationId: string): Promise<void> {
    await this.db.$transaction(async (tx) => {
      await tx.$executeRaw`
        INSERT INTO "bot_conversation_states" ("conversation_id", "bot_id", "status", "updated_at")
        VALUES (${conversationId}::uuid, ${botId}::uuid, 'handoff', now())
        ON CONFLICT ("conversation_id") DO NOTHING`;
      await tx.$queryRaw`SELECT 1 FROM "bot_conversation_states" WHERE "conversation_id" = ${conversationId}::uuid FOR UPDATE`;
      await tx.$executeRaw`
        UPDATE "bot_conversation_states" SET "status" = 'handoff', "retries" = 0, "updated_at" = now()
        WHERE "conversation_id" = ${conversationId}::uuid AND "status" <> 'handoff'`;
    });
  }

  /**
   * The agent hands the conversation back: a `handback` input for the runtime (which goes on after the
   * handoff node). Under the state row's lock; 'not_in_handoff' unless the state is `handoff`. A
   * handback still waiting for the runtime is returned again rather than queued twice.
   */
  async handback(botId: string, conversationId: string): Promise<HandbackResult> {
    return this.db.$transaction(async (tx) => {
      const [state] = await tx.$queryRaw<Array<{ status: string }>>`
        SELECT "status" FROM "bot_conversation_states" WHERE "conversation_id" = ${conversationId}::uuid FOR UPDATE`;
      if (state?.status !== 'handoff') return 'not_in_handoff';
      const [waiting] = await tx.$queryRaw<Array<{ seq: bigint }>>`
        SELECT "seq" FROM "bot_inputs" WHERE "conversation_id" = ${conversationId}::uuid AND "kind" = 'handback' AND "processed_at" IS NULL
        ORDER BY "seq" LIMIT 1`;
      if (waiting) return { seq: waiting.seq };
      const [row] = await tx.$queryRaw<Array<{ seq: bigint }>>`
        INSERT INTO "bot_inputs" ("conversation_id", "bot_id", "kind") VALUES (${conversationId}::uuid, ${botId}::uuid, 'handback') RETURNING "seq"`;
      return { seq: row.seq };
    });
  }
}
