import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

/** A UTC day range, both ends included, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

export interface StatusCounts {
  pending: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

export interface CarouselDayRow extends StatusCounts {
  day: string;
  templateId: string;
  templateName: string | null;
  language: string | null;
  senderId: string;
  senderNumber: string | null;
  total: number;
}

export interface ReplyDayRow extends StatusCounts {
  day: string;
}

export interface ChannelCountRow {
  channel: string;
  conversations: number;
}

export interface JourneyNodeRow {
  journey: string;
  node: string;
  kind: string;
  /** Conversations that ran the node at least once in the range. */
  reached: number;
  steps: number;
  /** Steps whose outcome was error or limit. */
  errors: number;
  /** Conversations whose last step of the journey (in the range) was this node: each conversation that ran the journey counts at one node. */
  stopped: number;
  /** Of those, the ones where it was an end node (the journey completed). */
  ended: number;
  /** Of those, the ones left waiting for the user there (dropped off, or not answered yet). */
  waiting: number;
}

const n = (v: bigint | number | null) => Number(v ?? 0);
/** Interactive transactions end by the queries' own timeout (DATABASE_QUERY_TIMEOUT_MS), not Prisma's 5 s default. */
const TX = { timeout: 600_000, maxWait: 10_000 };

/**
 * The console's overview: SQL aggregates of a bot's messages, conversations and hosted-bot steps over a
 * range of UTC days, read from daily rollups after recounting the days the triggers marked dirty:
 * carousel messages (`message_daily_stats`, migration 20261212000000_overview says why), replies,
 * conversations and journey steps (`reply_daily_stats`, `conversation_daily_stats`, `bot_step_daily_stats`,
 * migration 20261220400000). The `…Live` reads count the raw tables: what the rollups must equal.
 */
@Injectable()
export class OverviewRepository {
  constructor(private readonly db: PrismaService) {}

  /**
   * Recounts the bot's dirty days inside the range; how many days it recounted. The markers are taken
   * first and committed: a change committed after the recount's snapshot marks its day again, so the
   * next reader counts it. Readers of one bot take turns (advisory lock), so two recounts of a day never
   * interleave; a failed recount puts its markers back.
   */
  async refresh(botId: string, range: DayRange): Promise<number> {
    return this.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('message_daily_stats'), hashtext(${botId}))`;
      const taken = await tx.$queryRaw<Array<{ day: Date }>>`
        DELETE FROM message_stats_dirty WHERE bot_id = ${botId}::uuid AND day BETWEEN ${range.from}::date AND ${range.to}::date RETURNING day`;
      if (taken.length === 0) return 0;
      const days = taken.map((r) => r.day.toISOString().slice(0, 10));
      await tx.$executeRaw`DELETE FROM message_daily_stats WHERE bot_id = ${botId}::uuid AND day = ANY(${days}::date[])`;
      // One index range scan (messages_bot_id_created_at_idx) per day.
      await tx.$executeRaw`
        INSERT INTO message_daily_stats (bot_id, day, template_id, sender_id, total, pending, sent, delivered, read, failed)
        SELECT ${botId}::uuid, d.day, m.template_id, m.sender_id, count(*),
               count(*) FILTER (WHERE m.status IN ('queued', 'processing')),
               count(*) FILTER (WHERE m.status = 'sent'),
               count(*) FILTER (WHERE m.status = 'delivered'),
               count(*) FILTER (WHERE m.status = 'read'),
               count(*) FILTER (WHERE m.status = 'failed')
        FROM unnest(${days}::date[]) AS d(day)
        JOIN LATERAL (
          SELECT template_id, sender_id, status FROM messages
          WHERE bot_id = ${botId}::uuid AND created_at >= d.day::timestamp AT TIME ZONE 'UTC' AND created_at < (d.day + 1)::timestamp AT TIME ZONE 'UTC'
        ) m ON true
        GROUP BY d.day, m.template_id, m.sender_id`;
      return days.length;
    }, TX);
  }

  /**
   * Recounts the bot's dirty days of replies, conversations and steps inside the range (migration
   * 20261220400000 marks them), as `refresh` does for carousel messages; how many (part, day) it recounted.
   */
  async refreshParts(botId: string, range: DayRange): Promise<number> {
    return this.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('overview_stats'), hashtext(${botId}))`;
      const taken = await tx.$queryRaw<Array<{ day: Date; part: string }>>`
        DELETE FROM overview_stats_dirty WHERE bot_id = ${botId}::uuid AND day BETWEEN ${range.from}::date AND ${range.to}::date RETURNING day, part`;
      if (taken.length === 0) return 0;
      const days = (part: string) => taken.filter((r) => r.part === part).map((r) => r.day.toISOString().slice(0, 10));
      await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
      const replies = days('replies');
      if (replies.length > 0) {
        await tx.$executeRaw`DELETE FROM reply_daily_stats WHERE bot_id = ${botId}::uuid AND day = ANY(${replies}::date[])`;
        // One range scan of conversation_messages_created_at_idx per day; the conversation (by its key) says whose it is.
        await tx.$executeRaw`
          INSERT INTO reply_daily_stats (bot_id, day, pending, sent, delivered, read, failed)
          SELECT ${botId}::uuid, d.day,
                 count(*) FILTER (WHERE m.status IN ('queued', 'processing')), count(*) FILTER (WHERE m.status = 'sent'),
                 count(*) FILTER (WHERE m.status = 'delivered'), count(*) FILTER (WHERE m.status = 'read'), count(*) FILTER (WHERE m.status = 'failed')
          FROM unnest(${replies}::date[]) AS d(day)
          JOIN LATERAL (
            SELECT m.status FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id
            WHERE m.created_at >= d.day::timestamp AT TIME ZONE 'UTC' AND m.created_at < (d.day + 1)::timestamp AT TIME ZONE 'UTC'
              AND m.direction = 'outbound' AND c.bot_id = ${botId}::uuid AND c.test_version IS NULL
          ) m ON true
          GROUP BY d.day`;
      }
      const conversations = days('conversations');
      if (conversations.length > 0) {
        await tx.$executeRaw`DELETE FROM conversation_daily_stats WHERE bot_id = ${botId}::uuid AND day = ANY(${conversations}::date[])`;
        await tx.$executeRaw`
          INSERT INTO conversation_daily_stats (bot_id, day, channel, conversations)
          SELECT ${botId}::uuid, d.day, c.channel::text, count(*)
          FROM unnest(${conversations}::date[]) AS d(day)
          JOIN LATERAL (
            SELECT channel FROM conversations
            WHERE bot_id = ${botId}::uuid AND test_version IS NULL
              AND created_at >= d.day::timestamp AT TIME ZONE 'UTC' AND created_at < (d.day + 1)::timestamp AT TIME ZONE 'UTC'
          ) c ON true
          GROUP BY d.day, c.channel`;
      }
      const steps = days('steps');
      if (steps.length > 0) {
        await tx.$executeRaw`DELETE FROM bot_step_daily_stats WHERE bot_id = ${botId}::uuid AND day = ANY(${steps}::date[])`;
        // The live journey query of one day, per day (bot_steps_bot_id_started_at_idx): reached and stopped count within the day.
        await tx.$executeRaw`
          WITH s AS (
            SELECT d.day, b.id, b.conversation_id, b.journey, b.node, b.kind, b.outcome
            FROM unnest(${steps}::date[]) AS d(day)
            JOIN LATERAL (
              SELECT id, conversation_id, journey, node, kind, outcome FROM bot_steps
              WHERE bot_id = ${botId}::uuid AND version > 0
                AND started_at >= d.day::timestamp AT TIME ZONE 'UTC' AND started_at < (d.day + 1)::timestamp AT TIME ZONE 'UTC'
            ) b ON true
          ),
          per AS (
            SELECT day, conversation_id, journey, node, min(kind) AS kind, count(*) AS steps, count(*) FILTER (WHERE outcome IN ('error', 'limit')) AS errors, max(id) AS last_id
            FROM s GROUP BY day, conversation_id, journey, node
          ),
          last AS (SELECT day, max(last_id) AS id FROM per GROUP BY day, conversation_id, journey),
          stops AS (
            SELECT last.day, b.journey, b.node, count(*) AS stopped, count(*) FILTER (WHERE b.kind = 'end') AS ended, count(*) FILTER (WHERE b.outcome = 'waiting') AS waiting
            FROM last JOIN bot_steps b ON b.id = last.id GROUP BY last.day, b.journey, b.node
          ),
          nodes AS (SELECT day, journey, node, min(kind) AS kind, count(*) AS reached, sum(steps) AS steps, sum(errors) AS errors FROM per GROUP BY day, journey, node)
          INSERT INTO bot_step_daily_stats (bot_id, day, journey, node, kind, reached, steps, errors, stopped, ended, waiting)
          SELECT ${botId}::uuid, n.day, n.journey, n.node, n.kind, n.reached, n.steps, n.errors, coalesce(t.stopped, 0), coalesce(t.ended, 0), coalesce(t.waiting, 0)
          FROM nodes n LEFT JOIN stops t USING (day, journey, node)`;
      }
      return taken.length;
    }, TX);
  }

  /** The rollup's rows of the range (call refresh first), with the template's and sender's names. */
  async carouselDays(botId: string, range: DayRange): Promise<CarouselDayRow[]> {
    const rows = await this.db.$queryRaw<
      Array<{
        day: Date;
        template_id: string;
        template_name: string | null;
        language: string | null;
        sender_id: string;
        sender_number: string | null;
        total: number;
        pending: number;
        sent: number;
        delivered: number;
        read: number;
        failed: number;
      }>
    >`
      SELECT s.day, s.template_id, t.provider_name AS template_name, t.language, s.sender_id, c.number AS sender_number,
             s.total, s.pending, s.sent, s.delivered, s.read, s.failed
      FROM message_daily_stats s
      LEFT JOIN templates t ON t.id = s.template_id
      LEFT JOIN channel_senders c ON c.id = s.sender_id
      WHERE s.bot_id = ${botId}::uuid AND s.day BETWEEN ${range.from}::date AND ${range.to}::date
      ORDER BY s.day`;
    return rows.map((r) => ({
      day: r.day.toISOString().slice(0, 10),
      templateId: r.template_id,
      templateName: r.template_name,
      language: r.language,
      senderId: r.sender_id,
      senderNumber: r.sender_number,
      total: r.total,
      pending: r.pending,
      sent: r.sent,
      delivered: r.delivered,
      read: r.read,
      failed: r.failed,
    }));
  }

  /** The bot's replies in conversations per day and status, from the rollup (call refreshParts first). */
  async replyDays(botId: string, range: DayRange): Promise<ReplyDayRow[]> {
    const rows = await this.db.$queryRaw<Array<{ day: Date; pending: number; sent: number; delivered: number; read: number; failed: number }>>`
      SELECT day, pending, sent, delivered, read, failed FROM reply_daily_stats
      WHERE bot_id = ${botId}::uuid AND day BETWEEN ${range.from}::date AND ${range.to}::date ORDER BY day`;
    return rows.map((r) => ({ day: r.day.toISOString().slice(0, 10), pending: r.pending, sent: r.sent, delivered: r.delivered, read: r.read, failed: r.failed }));
  }

  /** Conversations started in the range per channel, from the rollup (call refreshParts first). */
  async conversationsPerChannel(botId: string, range: DayRange): Promise<ChannelCountRow[]> {
    const rows = await this.db.$queryRaw<Array<{ channel: string; conversations: bigint }>>`
      SELECT channel, sum(conversations) AS conversations FROM conversation_daily_stats
      WHERE bot_id = ${botId}::uuid AND day BETWEEN ${range.from}::date AND ${range.to}::date
      GROUP BY channel ORDER BY channel`;
    return rows.map((r) => ({ channel: r.channel, conversations: n(r.conversations) }));
  }

  /** Per journey and node, the sums of the range's days from the rollup (call refreshParts first): reached and stopped count once per conversation and day. */
  async journeyNodes(botId: string, range: DayRange): Promise<JourneyNodeRow[]> {
    const rows = await this.db.$queryRaw<Array<{ journey: string; node: string; kind: string; reached: bigint; steps: bigint; errors: bigint; stopped: bigint; ended: bigint; waiting: bigint }>>`
      SELECT journey, node, min(kind) AS kind, sum(reached) AS reached, sum(steps) AS steps, sum(errors) AS errors, sum(stopped) AS stopped, sum(ended) AS ended, sum(waiting) AS waiting
      FROM bot_step_daily_stats
      WHERE bot_id = ${botId}::uuid AND day BETWEEN ${range.from}::date AND ${range.to}::date
      GROUP BY journey, node ORDER BY journey, sum(reached) DESC, node`;
    return rows.map(journeyRow);
  }

  /** How many sender numbers the bot has now (deleted ones left out). */
  liveSenders(botId: string): Promise<number> {
    return this.db.channelSender.count({ where: { botId, deletedAt: null } });
  }

  /** The bot's replies in conversations (outbound messages) per day and status, counted live (what the rollup must equal; the bench's comparison). */
  async replyDaysLive(botId: string, range: DayRange): Promise<ReplyDayRow[]> {
    const rows = await this.db.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
      return tx.$queryRaw<Array<{ day: Date; pending: bigint; sent: bigint; delivered: bigint; read: bigint; failed: bigint }>>`
      SELECT (m.created_at AT TIME ZONE 'UTC')::date AS day,
             count(*) FILTER (WHERE m.status IN ('queued', 'processing')) AS pending,
             count(*) FILTER (WHERE m.status = 'sent') AS sent,
             count(*) FILTER (WHERE m.status = 'delivered') AS delivered,
             count(*) FILTER (WHERE m.status = 'read') AS read,
             count(*) FILTER (WHERE m.status = 'failed') AS failed
      FROM conversations c
      JOIN conversation_messages m ON m.conversation_id = c.id
      WHERE c.bot_id = ${botId}::uuid AND c.test_version IS NULL AND m.direction = 'outbound'
        AND m.created_at >= ${range.from}::date::timestamp AT TIME ZONE 'UTC' AND m.created_at < (${range.to}::date + 1)::timestamp AT TIME ZONE 'UTC'
      GROUP BY 1 ORDER BY 1`;
    }, TX);
    return rows.map((r) => ({ day: r.day.toISOString().slice(0, 10), pending: n(r.pending), sent: n(r.sent), delivered: n(r.delivered), read: n(r.read), failed: n(r.failed) }));
  }

  /** Conversations started in the range, per channel, counted live (conversations_bot_id_created_at_idx). */
  async conversationsPerChannelLive(botId: string, range: DayRange): Promise<ChannelCountRow[]> {
    const rows = await this.db.$queryRaw<Array<{ channel: string; conversations: bigint }>>`
      SELECT channel::text AS channel, count(*) AS conversations FROM conversations
      WHERE bot_id = ${botId}::uuid AND test_version IS NULL
        AND created_at >= ${range.from}::date::timestamp AT TIME ZONE 'UTC' AND created_at < (${range.to}::date + 1)::timestamp AT TIME ZONE 'UTC'
      GROUP BY channel ORDER BY channel`;
    return rows.map((r) => ({ channel: r.channel, conversations: n(r.conversations) }));
  }

  /**
   * The journey rows counted live from `bot_steps` with the rollup's meaning (reached and stopped per
   * conversation and UTC day, summed over the range's days): what the rollup must equal, and the bench's
   * comparison. Hash aggregates throughout, with the memory to keep them off disk.
   */
  async journeyNodesLive(botId: string, range: DayRange): Promise<JourneyNodeRow[]> {
    const rows = await this.db.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
      return tx.$queryRaw<Array<{ journey: string; node: string; kind: string; reached: bigint; steps: bigint; errors: bigint; stopped: bigint; ended: bigint; waiting: bigint }>>`
        WITH per AS (
          SELECT (started_at AT TIME ZONE 'UTC')::date AS day, conversation_id, journey, node, min(kind) AS kind, count(*) AS steps,
                 count(*) FILTER (WHERE outcome IN ('error', 'limit')) AS errors, max(id) AS last_id
          FROM bot_steps
          WHERE bot_id = ${botId}::uuid AND version > 0
            AND started_at >= ${range.from}::date::timestamp AT TIME ZONE 'UTC' AND started_at < (${range.to}::date + 1)::timestamp AT TIME ZONE 'UTC'
          GROUP BY 1, conversation_id, journey, node
        ),
        last AS (SELECT max(last_id) AS id FROM per GROUP BY day, conversation_id, journey),
        stops AS (
          SELECT s.journey, s.node, count(*) AS stopped, count(*) FILTER (WHERE s.kind = 'end') AS ended, count(*) FILTER (WHERE s.outcome = 'waiting') AS waiting
          FROM last JOIN bot_steps s ON s.id = last.id GROUP BY s.journey, s.node
        ),
        nodes AS (SELECT journey, node, min(kind) AS kind, count(*) AS reached, sum(steps) AS steps, sum(errors) AS errors FROM per GROUP BY journey, node)
        SELECT n.journey, n.node, n.kind, n.reached, n.steps, n.errors, coalesce(t.stopped, 0) AS stopped, coalesce(t.ended, 0) AS ended, coalesce(t.waiting, 0) AS waiting
        FROM nodes n LEFT JOIN stops t USING (journey, node)
        ORDER BY n.journey, n.reached DESC, n.node`;
    }, TX);
    return rows.map(journeyRow);
  }
}

function journeyRow(r: { journey: string; node: string; kind: string; reached: bigint; steps: bigint; errors: bigint; stopped: bigint; ended: bigint; waiting: bigint }): JourneyNodeRow {
  return {
    journey: r.journey,
    node: r.node,
    kind: r.kind,
    reached: n(r.reached),
    steps: n(r.steps),
    errors: n(r.errors),
    stopped: n(r.stopped),
    ended: n(r.ended),
    waiting: n(r.waiting),
  };
}
