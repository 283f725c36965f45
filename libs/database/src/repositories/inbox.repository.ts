import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';
import { isUniqueViolation } from './unique-violation.js';

/** Which conversations an inbox list shows (see docs/console.md#inbox). */
export type InboxFilter = 'all' | 'waiting' | 'mine' | 'bot' | 'closed';

/** The SQL condition of each filter: chosen from this fixed table, never built from input. `$2` is the signed-in member. */
const FILTERS: Record<InboxFilter, string> = {
  all: 'true',
  waiting: `s."status" = 'handoff' AND i."assigned_user_id" IS NULL`,
  mine: `i."assigned_user_id" = $2::uuid`,
  bot: `s."status" = 'waiting'`,
  closed: `(s."status" IS NULL OR s."status" = 'ended')`,
};

export interface InboxListQuery {
  botId: string;
  me: string;
  filter: InboxFilter;
  channel: 'web' | 'whatsapp' | null;
  /** Keyset of the previous page's last row: its last message's seq and its id. */
  after: { seq: bigint; id: string } | null;
  limit: number;
}

export interface InboxRow {
  id: string;
  channel: string;
  userId: string;
  createdAt: Date;
  lastInboundAt: Date | null;
  status: string | null;
  journey: string | null;
  node: string | null;
  assignedUserId: string | null;
  assigneeEmail: string | null;
  lastSeq: bigint;
  lastDirection: string | null;
  lastType: string | null;
  lastContent: Prisma.JsonValue | null;
  lastAt: Date | null;
  unread: number;
}

export interface InboxCounts {
  waiting: number;
  mine: number;
  bot: number;
  closed: number;
  /** The user's messages the member has not read yet, in conversations waiting for an agent or assigned to the member. */
  unread: number;
}

export interface InboxState {
  assignedUserId: string | null;
  assigneeEmail: string | null;
}

export interface ConversationNoteRow {
  id: string;
  text: string;
  createdAt: Date;
  authorUserId: string | null;
  authorEmail: string | null;
}

export interface CannedResponseRow {
  id: string;
  title: string;
  text: string;
  quickReplies: string[];
  updatedAt: Date;
}

export type JourneyHandbackResult = { seq: bigint } | 'not_in_handoff';

/** The user's messages after the member's read mark ($2 is the member): each member has their own. */
const UNREAD = `(SELECT count(*) FROM "conversation_messages" m WHERE m."conversation_id" = c."id" AND m."direction" = 'inbound' AND m."seq" > COALESCE(r."read_seq", 0))::int`;
const JOINS = `LEFT JOIN "bot_conversation_states" s ON s."conversation_id" = c."id"
               LEFT JOIN "inbox_conversations" i ON i."conversation_id" = c."id"
               LEFT JOIN "inbox_reads" r ON r."conversation_id" = c."id" AND r."user_id" = $2::uuid`;

/**
 * The console's inbox over a bot's conversations: the list with its filters and unread counts, who
 * handles a conversation, how far agents have read it, their internal notes, and the bot's canned
 * responses. The bot's own state (`bot_conversation_states`) is the runtime's and only read here, except
 * for the hand-back to a journey, which writes an input under the state row's lock as the handback does.
 */
@Injectable()
export class InboxRepository {
  constructor(private readonly db: PrismaService) {}

  /** A page of conversations, the most recently active first (by their last message). */
  async list(q: InboxListQuery): Promise<InboxRow[]> {
    const { rows } = await this.db.query<Record<string, unknown>>({
      text: `SELECT * FROM (
               SELECT c."id", c."channel"::text AS channel, c."user_id", c."created_at", c."last_inbound_at",
                      s."status", s."journey", s."node", i."assigned_user_id", u."email" AS assignee_email,
                      COALESCE(l."seq", 0) AS last_seq, l."direction"::text AS last_direction, l."type" AS last_type, l."content" AS last_content, l."created_at" AS last_at,
                      ${UNREAD} AS unread
               FROM "conversations" c ${JOINS}
               LEFT JOIN "users" u ON u."id" = i."assigned_user_id"
               LEFT JOIN LATERAL (SELECT m."seq", m."direction", m."type", m."content", m."created_at" FROM "conversation_messages" m
                                  WHERE m."conversation_id" = c."id" ORDER BY m."seq" DESC LIMIT 1) l ON true
               -- $2 is typed here too: filters other than mine do not name it, and Postgres must know every parameter's type.
               WHERE c."bot_id" = $1::uuid AND c."test_version" IS NULL AND $2::uuid IS NOT NULL AND (${FILTERS[q.filter]}) AND ($3::text IS NULL OR c."channel"::text = $3::text)
             ) x
             WHERE $4::bigint IS NULL OR (x.last_seq, x."id") < ($4::bigint, $5::uuid)
             ORDER BY x.last_seq DESC, x."id" DESC
             LIMIT $6`,
      values: [q.botId, q.me, q.channel, q.after ? q.after.seq.toString() : null, q.after?.id ?? null, q.limit],
    });
    return rows.map((r) => ({
      id: r.id as string,
      channel: r.channel as string,
      userId: r.user_id as string,
      createdAt: r.created_at as Date,
      lastInboundAt: (r.last_inbound_at as Date | null) ?? null,
      status: (r.status as string | null) ?? null,
      journey: (r.journey as string | null) ?? null,
      node: (r.node as string | null) ?? null,
      assignedUserId: (r.assigned_user_id as string | null) ?? null,
      assigneeEmail: (r.assignee_email as string | null) ?? null,
      lastSeq: BigInt(r.last_seq as string),
      lastDirection: (r.last_direction as string | null) ?? null,
      lastType: (r.last_type as string | null) ?? null,
      lastContent: (r.last_content as Prisma.JsonValue | null) ?? null,
      lastAt: (r.last_at as Date | null) ?? null,
      unread: r.unread as number,
    }));
  }

  /** How many conversations each filter holds (one scan of the bot's conversations). */
  async counts(botId: string, me: string, channel: 'web' | 'whatsapp' | null): Promise<InboxCounts> {
    const { rows } = await this.db.query<Record<string, number>>({
      text: `SELECT count(*) FILTER (WHERE ${FILTERS.waiting})::int AS waiting,
                    count(*) FILTER (WHERE ${FILTERS.mine})::int AS mine,
                    count(*) FILTER (WHERE ${FILTERS.bot})::int AS bot,
                    count(*) FILTER (WHERE ${FILTERS.closed})::int AS closed,
                    COALESCE(sum(${UNREAD}) FILTER (WHERE (${FILTERS.waiting}) OR (${FILTERS.mine})), 0)::int AS unread
             FROM "conversations" c ${JOINS}
             WHERE c."bot_id" = $1::uuid AND c."test_version" IS NULL AND ($3::text IS NULL OR c."channel"::text = $3::text)`,
      values: [botId, me, channel],
    });
    const r = rows[0]!;
    return { waiting: r.waiting!, mine: r.mine!, bot: r.bot!, closed: r.closed!, unread: r.unread! };
  }

  async state(conversationId: string): Promise<InboxState> {
    const row = await this.db.inboxConversation.findUnique({ where: { conversationId }, select: { assignedUserId: true, assignedUser: { select: { email: true } } } });
    return { assignedUserId: row?.assignedUserId ?? null, assigneeEmail: row?.assignedUser?.email ?? null };
  }

  /** The seq of the last message `userId` has read in the conversation (0: none). */
  async readSeq(conversationId: string, userId: string): Promise<bigint> {
    const row = await this.db.inboxRead.findUnique({ where: { conversationId_userId: { conversationId, userId } }, select: { readSeq: true } });
    return row?.readSeq ?? 0n;
  }

  /** Gives the conversation to a member (null: to nobody). */
  async assign(botId: string, conversationId: string, userId: string | null): Promise<void> {
    await this.db.inboxConversation.upsert({
      where: { conversationId },
      create: { conversationId, botId, assignedUserId: userId },
      update: { assignedUserId: userId },
    });
  }

  /**
   * The member has read the conversation up to the message `upTo` (the newest they were shown: one that
   * came meanwhile stays unread), or up to its newest message when null; the mark never moves back.
   * Null when `upTo` is not a message of the conversation.
   */
  async markRead(conversationId: string, userId: string, upTo: string | null): Promise<bigint | null> {
    const rows = await this.db.$queryRaw<Array<{ read_seq: bigint }>>`
      WITH upto AS (
        SELECT COALESCE(max("seq"), 0) AS seq FROM "conversation_messages"
        WHERE "conversation_id" = ${conversationId}::uuid AND (${upTo}::uuid IS NULL OR "id" = ${upTo}::uuid)
        HAVING ${upTo}::uuid IS NULL OR count(*) > 0
      )
      INSERT INTO "inbox_reads" ("conversation_id", "user_id", "read_seq", "updated_at")
      SELECT ${conversationId}::uuid, ${userId}::uuid, upto.seq, now() FROM upto
      ON CONFLICT ("conversation_id", "user_id") DO UPDATE SET "read_seq" = GREATEST("inbox_reads"."read_seq", EXCLUDED."read_seq"), "updated_at" = now()
      RETURNING "read_seq"`;
    return rows[0]?.read_seq ?? null;
  }

  /** The newest `limit` steps of the bot in the conversation, oldest first. */
  async latestSteps(conversationId: string, limit: number) {
    const rows = await this.db.botStep.findMany({
      where: { conversationId },
      orderBy: { id: 'desc' },
      take: limit,
      select: { id: true, startedAt: true, version: true, journey: true, node: true, kind: true, outcome: true, error: true, durationMs: true, sandboxMs: true },
    });
    return rows.reverse();
  }

  /**
   * Of these messages, those a member sent from the inbox: message id to the member's user id and e-mail
   * (null when the account is gone). One lookup by primary key for a transcript's page, however it was read.
   */
  async agentSenders(messageIds: string[]): Promise<Map<string, { userId: string; email: string | null }>> {
    if (messageIds.length === 0) return new Map();
    const { rows } = await this.db.query<{ id: string; userId: string; email: string | null }>({
      name: 'inbox-agent-senders',
      text: `SELECT m."id", m."sent_by_user_id" AS "userId", u."email" FROM "conversation_messages" m
             LEFT JOIN "users" u ON u."id" = m."sent_by_user_id"
             WHERE m."id" = ANY($1::uuid[]) AND m."sent_by_user_id" IS NOT NULL`,
      values: [messageIds],
    });
    return new Map(rows.map((r) => [r.id, { userId: r.userId, email: r.email }]));
  }

  async notes(conversationId: string): Promise<ConversationNoteRow[]> {
    const rows = await this.db.conversationNote.findMany({
      where: { conversationId },
      orderBy: { createdAt: 'asc' },
      take: 200,
      select: { id: true, text: true, createdAt: true, authorUserId: true, author: { select: { email: true } } },
    });
    return rows.map((n) => ({ id: n.id, text: n.text, createdAt: n.createdAt, authorUserId: n.authorUserId, authorEmail: n.author?.email ?? null }));
  }

  async addNote(conversationId: string, authorUserId: string, text: string): Promise<ConversationNoteRow> {
    const n = await this.db.conversationNote.create({
      data: { conversationId, authorUserId, text },
      select: { id: true, text: true, createdAt: true, authorUserId: true, author: { select: { email: true } } },
    });
    return { id: n.id, text: n.text, createdAt: n.createdAt, authorUserId: n.authorUserId, authorEmail: n.author?.email ?? null };
  }

  cannedResponses(botId: string): Promise<CannedResponseRow[]> {
    return this.db.cannedResponse.findMany({ where: { botId }, orderBy: { title: 'asc' }, select: { id: true, title: true, text: true, quickReplies: true, updatedAt: true } });
  }

  /** Null when the bot has one with that title already. */
  async createCanned(botId: string, data: { title: string; text: string; quickReplies: string[] }): Promise<CannedResponseRow | null> {
    try {
      return await this.db.cannedResponse.create({ data: { botId, ...data }, select: { id: true, title: true, text: true, quickReplies: true, updatedAt: true } });
    } catch (err) {
      if (isUniqueViolation(err)) return null;
      throw err;
    }
  }

  /** 'missing' for an unknown id, 'taken' when another of the bot's responses has the title. */
  async updateCanned(botId: string, id: string, data: { title: string; text: string; quickReplies: string[] }): Promise<CannedResponseRow | 'missing' | 'taken'> {
    try {
      const changed = await this.db.cannedResponse.updateMany({ where: { id, botId }, data });
      if (changed.count === 0) return 'missing';
    } catch (err) {
      if (isUniqueViolation(err)) return 'taken';
      throw err;
    }
    return (await this.db.cannedResponse.findUnique({ where: { id }, select: { id: true, title: true, text: true, quickReplies: true, updatedAt: true } }))!;
  }

  async deleteCanned(botId: string, id: string): Promise<boolean> {
    return (await this.db.cannedResponse.deleteMany({ where: { id, botId } })).count > 0;
  }

  /**
   * The agent hands the conversation to a chosen journey: a `start` input naming it (the runtime starts it
   * afresh, docs/bots.md#entry), with the session payload the conversation has. Under the state row's
   * lock, as the handback: 'not_in_handoff' unless the state is `handoff`.
   */
  async handbackToJourney(botId: string, conversationId: string, journeySlug: string): Promise<JourneyHandbackResult> {
    return this.db.$transaction(async (tx) => {
      const [state] = await tx.$queryRaw<Array<{ status: string; payload: string | null; journey: string | null }>>`
        SELECT "status", "payload", "journey" FROM "bot_conversation_states" WHERE "conversation_id" = ${conversationId}::uuid FOR UPDATE`;
      if (state?.status !== 'handoff') return 'not_in_handoff';
      // Taken over with no journey running, the runtime skips every input until a handback: one goes first.
      if (state.journey === null) await tx.$executeRaw`INSERT INTO "bot_inputs" ("conversation_id", "bot_id", "kind") VALUES (${conversationId}::uuid, ${botId}::uuid, 'handback')`;
      const [row] = await tx.$queryRaw<Array<{ seq: bigint }>>`
        INSERT INTO "bot_inputs" ("conversation_id", "bot_id", "kind", "payload", "journey_slug")
        VALUES (${conversationId}::uuid, ${botId}::uuid, 'start', ${state.payload ?? '{}'}, ${journeySlug}) RETURNING "seq"`;
      return { seq: row!.seq };
    });
  }
}
