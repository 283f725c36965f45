import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { BotDefinition, BotOutput, BotReply, BotRunState, BotStepRecord, BotTurnInput, MessageContent, OutboundMessageType } from '@platform/contracts';
import type { ConversationChannel } from '../generated/enums.js';
import type { Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';
import type { ConversationMessageRow } from './conversation.repository.js';
import { storableJson } from './storable-json.js';

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
export type BotOutboxItem = { id: string; seq: bigint; conversationId: string; botId: string } & (
  { kind: 'reply'; messageId: string } | { kind: 'event'; event: Prisma.JsonValue } | { kind: 'handoff'; reason: string | null }
);

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
  /** Where the turn's replies go. */
  readonly conversation: BotRunConversation;
  /**
   * Whether the outbox held items when the turn began (an earlier run committed but died before
   * handing them over): then the handover reads the whole outbox rather than only what this turn wrote.
   */
  readonly outboxWaiting: boolean;
  /** These read on the turn's own connection: a turn never waits for a second one (a pool of turns would wait on each other). */
  /** The version a journey starts on: the published one, or a builder's try-it conversation's test version. */
  publishedVersion(): Promise<number | null>;
  definition(version: number): Promise<BotDefinition | null>;
  sealedSecrets(): Promise<Array<{ name: string; valueEncrypted: string }>>;
  /**
   * The payload of the session's latest start before input `seq` (a `start` input keeps what the app
   * passed): a journey a message starts once the last one ended gets it, since an ended conversation
   * keeps no state.
   */
  sessionPayload(seq: bigint): Promise<string | null>;
  /**
   * Stores what `input` left: the new state, its replies (queued rows), its outbox items in output
   * order, its steps; marks it processed. Answers the outbox items it wrote, as the handover reads them.
   */
  record(input: PendingBotInput, processed: ProcessedBotInput): Promise<HandoverItem[]>;
  /** Marks `input` processed and changes nothing else (the bot stays silent). */
  skip(input: PendingBotInput): Promise<void>;
}

/** Inputs taken in one transaction at most: a long backlog commits (and hands its replies over) in slices. */
export const MAX_INPUTS_PER_TURN = 20;

/**
 * How long a turn's transaction may stay open: its inputs run the engine (sandboxed functions, http
 * calls of up to 10 s each) inside it. Past this Prisma rolls it back and the job is retried.
 */
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
  /** bigint as pg answers it. */
  seq: string;
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
  private readonly definitions = new Map<string, BotDefinition>();

  constructor(private readonly db: PrismaService) {}

  /** Removes a handed-over item; one removed already (by a replica) is no error. */
  async deleteOutboxItem(id: string): Promise<void> {
    await this.db.botOutboxItem.deleteMany({ where: { id } });
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
  /**
   * The conversation and its outbox in order, each reply with its message row, in one statement (the
   * conversation with no items when the outbox is empty); null when the conversation is gone.
   */
  async handover(conversationId: string): Promise<{ conversation: BotRunConversation; items: HandoverItem[] } | null> {
    const { rows } = await this.db.pool.query<HandoverRow>({ name: 'bot-handover', text: HANDOVER_SQL, values: [conversationId] });
    if (rows.length === 0) return null;
    const [first] = rows;
    const conversation: BotRunConversation = {
      id: first.c_id,
      botId: first.c_bot_id,
      channel: first.c_channel,
      userId: first.c_user_id,
      senderId: first.c_sender_id,
      lastInboundAt: first.c_last_inbound_at,
    };
    const items = rows
      .filter((r) => r.o_id !== null)
      .map((r): HandoverItem => {
        const base = { id: r.o_id!, seq: BigInt(r.o_seq!), conversationId, botId: r.c_bot_id };
        if (r.o_kind === 'handoff') return { ...base, kind: 'handoff', reason: handoffReason(r.o_event) };
        if (r.o_kind !== 'reply') return { ...base, kind: 'event', event: r.o_event };
        const message: ConversationMessageRow | null =
          r.m_id === null
            ? null
            : {
                id: r.m_id,
                seq: BigInt(r.m_seq!),
                position: r.m_position!,
                conversationId,
                direction: 'outbound',
                type: r.m_type!,
                content: r.m_content,
                providerMessageId: r.m_provider_message_id,
                status: r.m_status,
                attempts: r.m_attempts!,
                lastErrorCode: r.m_last_error_code,
                lastErrorText: r.m_last_error_text,
                webhookSettledAt: null,
                createdAt: r.m_created_at!,
              };
        return { ...base, kind: 'reply', messageId: r.o_message_id!, message };
      });
    return { conversation, items };
  }

  /** Web replies and app events handed to the event stream: their outbox items go, the replies are sent (one statement). */
  async completeWebHandover(outboxIds: readonly string[], sentMessageIds: readonly string[]): Promise<void> {
    await this.db.pool.query({ name: 'bot-handover-web-done', text: WEB_HANDOVER_DONE_SQL, values: [outboxIds, sentMessageIds] });
  }

  async withTurn<T>(conversationId: string, botId: string, work: (turn: LockedBotTurn) => Promise<T>): Promise<T | null> {
    // The hot path of hosted bots, on the pg pool with named statements (Prisma's per-query work cost
    // more than the statements here): the lock and state in one statement, the inputs in one, each
    // input's writes in one, so a turn is five round trips whatever it sent.
    const client = await this.db.pool.connect();
    let open = false;
    try {
      await client.query('BEGIN');
      open = true;
      let row: LockRow;
      try {
        ({
          rows: [row],
        } = await client.query<LockRow>({ name: 'bot-turn-lock', text: LOCK_SQL, values: [conversationId, botId] }));
      } catch (err) {
        if ((err as { code?: string }).code === FOREIGN_KEY_VIOLATION) return null; // the conversation was erased
        throw err;
      }
      const { rows: inputs } = await client.query<InputRow>({ name: 'bot-turn-inputs', text: INPUTS_SQL, values: [conversationId, MAX_INPUTS_PER_TURN] });
      const state = toRunState(row);
      const turn: LockedBotTurn = {
        state,
        bareHandoff: row.status === 'handoff' && state === null,
        inputs: inputs.map((i) => ({ seq: BigInt(i.seq), input: toTurnInput(i) })),
        conversation: {
          id: conversationId,
          botId,
          channel: row.c_channel,
          userId: row.c_user_id,
          senderId: row.c_sender_id,
          lastInboundAt: row.c_last_inbound_at,
        },
        outboxWaiting: row.outbox_waiting,
        publishedVersion: async () => row.published_version,
        definition: (version) => this.definition(botId, version),
        sealedSecrets: async () => (await client.query<{ name: string; valueEncrypted: string }>({ name: 'bot-turn-secrets', text: SECRETS_SQL, values: [botId] })).rows,
        sessionPayload: async (seq) =>
          (await client.query<{ payload: string | null }>({ name: 'bot-turn-session-payload', text: SESSION_PAYLOAD_SQL, values: [conversationId, seq.toString()] })).rows[0]?.payload ?? null,
        skip: async (input) => void (await client.query({ name: 'bot-turn-skip', text: SKIP_SQL, values: [input.seq.toString()] })),
        record: async (input, processed) => {
          const replies: Array<{ id: string; type: OutboundMessageType; content: MessageContent }> = [];
          const outbox: Array<{ id: string; kind: 'reply' | 'event' | 'handoff'; messageId?: string; event?: Prisma.JsonValue }> = [];
          for (const output of processed.outputs) {
            if (output.kind === 'reply') {
              const id = randomUUID();
              replies.push({ id, ...replyContent(output.reply) });
              outbox.push({ id: randomUUID(), kind: 'reply', messageId: id });
            } else if (output.kind === 'event') outbox.push({ id: randomUUID(), kind: 'event', event: output.event as unknown as Prisma.JsonValue });
            // A handoff node: the conversation.handoff event goes out after the commit, as replies do (the
            // item's id is the event's id, so a handover run twice sends the same webhook-id). A builder's
            // try-it conversation tells no one: it is not the bot's real traffic.
            else if (!row.c_test) outbox.push({ id: randomUUID(), kind: 'handoff', event: { reason: output.reason ?? null } });
          }
          const s = processed.state;
          // Variables after each step are kept for builder tests (negative versions: the try-it trace), not for published versions' steps.
          const test = processed.version !== null && processed.version < 0;
          const steps =
            processed.version === null
              ? []
              : processed.steps.map(({ variables, ...step }) => ({ ...step, error: step.error ?? null, sandboxMs: step.sandboxMs ?? null, ...(test && variables ? { variables } : {}) }));
          const {
            rows: [written],
          } = await client.query<{ msgs: Array<{ id: string; seq: string; position: number; createdAt: string }>; ob: Array<{ id: string; seq: string }> }>({
            name: 'bot-turn-record',
            text: RECORD_SQL,
            values: [
              conversationId,
              botId,
              s ? s.status : 'ended',
              s ? s.version : null,
              s ? s.journey : null,
              s ? s.node : null,
              storableJson(s ? s.variables : {}),
              s ? s.retries : 0,
              s ? s.payload : null,
              storableJson(replies),
              storableJson(outbox),
              storableJson(steps),
              input.seq.toString(),
              processed.version,
            ],
          });
          // The items as the handover would read them after the commit, without reading them.
          const messages = new Map(written.msgs.map((m) => [m.id, m]));
          const outboxSeqs = new Map(written.ob.map((o) => [o.id, BigInt(o.seq)]));
          const byId = new Map(replies.map((r) => [r.id, r]));
          return outbox.map((item): HandoverItem => {
            const base = { id: item.id, seq: outboxSeqs.get(item.id)!, conversationId, botId };
            if (item.kind === 'event') return { ...base, kind: 'event', event: item.event ?? null };
            if (item.kind === 'handoff') return { ...base, kind: 'handoff', reason: handoffReason(item.event) };
            const reply = byId.get(item.messageId!)!;
            const m = messages.get(item.messageId!)!;
            const message: ConversationMessageRow = {
              id: reply.id,
              seq: BigInt(m.seq),
              position: m.position,
              conversationId,
              direction: 'outbound',
              type: reply.type,
              content: reply.content as unknown as Prisma.JsonValue,
              providerMessageId: null,
              status: 'queued',
              attempts: 0,
              lastErrorCode: null,
              lastErrorText: null,
              webhookSettledAt: null,
              createdAt: new Date(m.createdAt),
            };
            return { ...base, kind: 'reply', messageId: reply.id, message };
          });
        },
      };
      const result = await work(turn);
      open = false;
      await client.query('COMMIT');
      return result;
    } finally {
      // A failed statement or work rolls back; a connection that failed is not given back to the pool.
      if (open) await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  }

  /**
   * A published version's definition. Versions are immutable, so each process keeps the ones it ran
   * (bounded): a turn does not read and parse a whole definition again.
   */
  private async definition(botId: string, version: number): Promise<BotDefinition | null> {
    const key = `${botId}:${version}`;
    const cached = this.definitions.get(key);
    if (cached) return cached;
    const { rows } = await this.db.pool.query<{ definition: BotDefinition }>({ name: 'bot-turn-definition', text: DEFINITION_SQL, values: [botId, version] });
    if (rows.length === 0) return null;
    if (this.definitions.size >= DEFINITION_CACHE_SIZE) this.definitions.delete(this.definitions.keys().next().value!);
    this.definitions.set(key, rows[0].definition);
    return rows[0].definition;
  }
}

const FOREIGN_KEY_VIOLATION = '23503';

/** An outbox item as the handover reads it: a reply with its message row (null: erased meanwhile). */
export type HandoverItem = { id: string; seq: bigint; conversationId: string; botId: string } & (
  | { kind: 'reply'; messageId: string; message: ConversationMessageRow | null }
  | { kind: 'event'; event: Prisma.JsonValue }
  /** The bot's handoff node ran: tell the lifecycle stream and the bot's webhook (conversation.handoff). */
  | { kind: 'handoff'; reason: string | null }
);

function handoffReason(event: Prisma.JsonValue | null | undefined): string | null {
  const reason = (event as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' && reason !== '' ? reason : null;
}

interface HandoverRow {
  c_id: string;
  c_bot_id: string;
  c_channel: ConversationChannel;
  c_user_id: string;
  c_sender_id: string | null;
  c_last_inbound_at: Date | null;
  o_id: string | null;
  o_seq: string | null;
  o_kind: string | null;
  o_event: Prisma.JsonValue;
  o_message_id: string | null;
  m_id: string | null;
  m_seq: string | null;
  m_position: number | null;
  m_type: string | null;
  m_content: Prisma.JsonValue;
  m_provider_message_id: string | null;
  m_status: ConversationMessageRow['status'];
  m_attempts: number | null;
  m_last_error_code: string | null;
  m_last_error_text: string | null;
  m_created_at: Date | null;
}

const HANDOVER_SQL = `SELECT c."id" AS c_id, c."bot_id" AS c_bot_id, c."channel" AS c_channel, c."user_id" AS c_user_id, c."sender_id" AS c_sender_id,
    c."last_inbound_at" AS c_last_inbound_at, o."id" AS o_id, o."seq" AS o_seq, o."kind" AS o_kind, o."event" AS o_event, o."message_id" AS o_message_id,
    m."id" AS m_id, m."seq" AS m_seq, m."position" AS m_position, m."type" AS m_type, m."content" AS m_content, m."provider_message_id" AS m_provider_message_id, m."status" AS m_status,
    m."attempts" AS m_attempts, m."last_error_code" AS m_last_error_code, m."last_error_text" AS m_last_error_text, m."created_at" AS m_created_at
  FROM "conversations" c LEFT JOIN "bot_outbox" o ON o."conversation_id" = c."id" LEFT JOIN "conversation_messages" m ON m."id" = o."message_id"
  WHERE c."id" = $1::uuid ORDER BY o."seq"`;

const WEB_HANDOVER_DONE_SQL = `WITH gone AS (DELETE FROM "bot_outbox" WHERE "id" = ANY($1::uuid[]))
UPDATE "conversation_messages" SET "status" = 'sent', "provider_message_id" = 'web:' || "id", "last_error_code" = NULL, "last_error_text" = NULL
  WHERE "id" = ANY($2::uuid[]) AND "status" IN ('queued', 'processing')`;
const DEFINITION_CACHE_SIZE = 500;

interface LockRow extends StateRow {
  published_version: number | null;
  c_channel: ConversationChannel;
  c_user_id: string;
  c_sender_id: string | null;
  c_last_inbound_at: Date | null;
  /** A builder's try-it conversation (it runs a test version). */
  c_test: boolean;
  outbox_waiting: boolean;
}

/**
 * Creates the state row when missing and locks it (ON CONFLICT DO UPDATE locks the row), with the
 * bot's published version, the conversation, and whether an earlier run left outbox items.
 */
const LOCK_SQL = `WITH s AS (
  INSERT INTO "bot_conversation_states" ("conversation_id", "bot_id", "status", "updated_at") VALUES ($1::uuid, $2::uuid, 'ended', now())
  ON CONFLICT ("conversation_id") DO UPDATE SET "conversation_id" = EXCLUDED."conversation_id"
  RETURNING "status", "version", "journey", "node", "variables", "retries", "payload")
SELECT s.*, COALESCE(c."test_version", (SELECT d."published_version" FROM "bot_definitions" d WHERE d."bot_id" = $2::uuid)) AS "published_version",
  c."channel" AS c_channel, c."user_id" AS c_user_id, c."sender_id" AS c_sender_id, c."last_inbound_at" AS c_last_inbound_at, c."test_version" IS NOT NULL AS c_test,
  EXISTS (SELECT 1 FROM "bot_outbox" o WHERE o."conversation_id" = $1::uuid) AS outbox_waiting
FROM s JOIN "conversations" c ON c."id" = $1::uuid`;

const SESSION_PAYLOAD_SQL = `SELECT "payload" FROM "bot_inputs" WHERE "conversation_id" = $1::uuid AND "kind" = 'start' AND "seq" < $2::bigint ORDER BY "seq" DESC LIMIT 1`;

const INPUTS_SQL = `SELECT i."seq", i."kind", i."payload", i."journey_slug", m."content"
  FROM "bot_inputs" AS i LEFT JOIN "conversation_messages" AS m ON m."id" = i."message_id"
  WHERE i."conversation_id" = $1::uuid AND i."processed_at" IS NULL ORDER BY i."seq" LIMIT $2`;

const SECRETS_SQL = `SELECT "name", "value_encrypted" AS "valueEncrypted" FROM "bot_secrets" WHERE "bot_id" = $1::uuid ORDER BY "name"`;
const SKIP_SQL = `UPDATE "bot_inputs" SET "processed_at" = now() WHERE "seq" = $1::bigint`;
const DEFINITION_SQL = `SELECT "definition" FROM "bot_versions" WHERE "bot_id" = $1::uuid AND "version" = $2`;

/**
 * One input's writes in one statement: the state, the replies (queued, in order), their outbox items and
 * the app events' (in output order), the steps, the input processed. Every data-modifying CTE runs.
 * Answers the replies' and items' sequence numbers (and the replies' times), which Postgres assigns.
 */
const RECORD_SQL = `WITH st AS (
  UPDATE "bot_conversation_states" SET "status" = $3, "version" = $4, "journey" = $5, "node" = $6, "variables" = $7::jsonb, "retries" = $8,
    "payload" = $9, "turns" = "turns" + 1, "updated_at" = now()
  WHERE "conversation_id" = $1::uuid
), msgs AS (
  INSERT INTO "conversation_messages" ("id", "conversation_id", "direction", "type", "content", "status")
  SELECT (e->>'id')::uuid, $1::uuid, 'outbound', e->>'type', e->'content', 'queued' FROM jsonb_array_elements($10::jsonb) WITH ORDINALITY AS t(e, ord) ORDER BY ord
  RETURNING "id", "seq", "position", "created_at"
), conv AS (
  UPDATE "conversations" SET "updated_at" = now() WHERE "id" = $1::uuid AND jsonb_array_length($10::jsonb) > 0
), ob AS (
  INSERT INTO "bot_outbox" ("id", "conversation_id", "bot_id", "kind", "message_id", "event")
  SELECT (e->>'id')::uuid, $1::uuid, $2::uuid, e->>'kind', (e->>'messageId')::uuid, e->'event' FROM jsonb_array_elements($11::jsonb) WITH ORDINALITY AS t(e, ord) ORDER BY ord
  RETURNING "id", "seq"
), steps AS (
  INSERT INTO "bot_steps" ("conversation_id", "bot_id", "version", "input_seq", "journey", "node", "kind", "outcome", "error", "duration_ms", "sandbox_ms", "started_at", "variables")
  SELECT $1::uuid, $2::uuid, $14::int, $13::bigint, e->>'journey', e->>'node', e->>'kind', e->>'outcome', e->>'error', (e->>'durationMs')::float8, (e->>'sandboxMs')::float8,
    (e->>'startedAt')::timestamptz, e->'variables'
  FROM jsonb_array_elements($12::jsonb) AS t(e)
), done AS (
  UPDATE "bot_inputs" SET "processed_at" = now() WHERE "seq" = $13::bigint
)
SELECT (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', "id", 'seq', "seq"::text, 'position', "position", 'createdAt', "created_at")), '[]'::jsonb) FROM msgs) AS msgs,
  (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', "id", 'seq', "seq"::text)), '[]'::jsonb) FROM ob) AS ob`;

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
