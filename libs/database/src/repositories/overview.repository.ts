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
 * range of UTC days. Carousel messages are read from the daily rollup (`message_daily_stats`), after
 * recounting the days the triggers marked dirty (migration 20261212000000_overview says why); replies,
 * conversations and steps are read live through their (bot, time) indexes.
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

  /** The bot's replies in conversations (outbound messages) per day and status. */
  async replyDays(botId: string, range: DayRange): Promise<ReplyDayRow[]> {
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

  /** Conversations started in the range, per channel (conversations_bot_id_created_at_idx). */
  async conversationsPerChannel(botId: string, range: DayRange): Promise<ChannelCountRow[]> {
    const rows = await this.db.$queryRaw<Array<{ channel: string; conversations: bigint }>>`
      SELECT channel::text AS channel, count(*) AS conversations FROM conversations
      WHERE bot_id = ${botId}::uuid AND test_version IS NULL
        AND created_at >= ${range.from}::date::timestamp AT TIME ZONE 'UTC' AND created_at < (${range.to}::date + 1)::timestamp AT TIME ZONE 'UTC'
      GROUP BY channel ORDER BY channel`;
    return rows.map((r) => ({ channel: r.channel, conversations: n(r.conversations) }));
  }

  /**
   * Per journey and node, from the steps of the range (bot_steps_bot_id_started_at_idx): conversations
   * that reached the node, steps and errors, and where each conversation's last step of the journey
   * was: an end node (ended) or a node waiting for the user (left waiting).
   */
  async journeyNodes(botId: string, range: DayRange): Promise<JourneyNodeRow[]> {
    // Hash aggregates throughout (one row per conversation and node first), with the memory to keep
    // them off disk: count(DISTINCT) and DISTINCT ON sorted every step and took seconds at 500,000 steps.
    const rows = await this.db.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
      return tx.$queryRaw<Array<{ journey: string; node: string; kind: string; reached: bigint; steps: bigint; errors: bigint; stopped: bigint; ended: bigint; waiting: bigint }>>`
        WITH per AS (
          SELECT conversation_id, journey, node, min(kind) AS kind, count(*) AS steps, count(*) FILTER (WHERE outcome IN ('error', 'limit')) AS errors, max(id) AS last_id
          FROM bot_steps
          WHERE bot_id = ${botId}::uuid AND version > 0
            AND started_at >= ${range.from}::date::timestamp AT TIME ZONE 'UTC' AND started_at < (${range.to}::date + 1)::timestamp AT TIME ZONE 'UTC'
          GROUP BY conversation_id, journey, node
        ),
        last AS (SELECT max(last_id) AS id FROM per GROUP BY conversation_id, journey),
        stops AS (
          SELECT s.journey, s.node, count(*) AS stopped, count(*) FILTER (WHERE s.kind = 'end') AS ended, count(*) FILTER (WHERE s.outcome = 'waiting') AS waiting
          FROM last JOIN bot_steps s ON s.id = last.id GROUP BY s.journey, s.node
        ),
        nodes AS (SELECT journey, node, min(kind) AS kind, count(*) AS reached, sum(steps) AS steps, sum(errors) AS errors FROM per GROUP BY journey, node)
        SELECT n.journey, n.node, n.kind, n.reached, n.steps, n.errors, coalesce(t.stopped, 0) AS stopped, coalesce(t.ended, 0) AS ended, coalesce(t.waiting, 0) AS waiting
        FROM nodes n LEFT JOIN stops t USING (journey, node)
        ORDER BY n.journey, n.reached DESC, n.node`;
    }, TX);
    return rows.map((r) => ({
      journey: r.journey,
      node: r.node,
      kind: r.kind,
      reached: n(r.reached),
      steps: n(r.steps),
      errors: n(r.errors),
      stopped: n(r.stopped),
      ended: n(r.ended),
      waiting: n(r.waiting),
    }));
  }
}
