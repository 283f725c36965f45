import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { CampaignMapping, CampaignStatusName } from '@platform/contracts';
import { PrismaService } from '../prisma.service.js';

export interface CampaignRow {
  id: string;
  botId: string;
  name: string;
  templateId: string;
  senderId: string;
  status: CampaignStatusName;
  mapping: CampaignMapping;
  startAt: Date | null;
  timeZone: string;
  quietFromMinute: number | null;
  quietToMinute: number | null;
  frequencyCap: number | null;
  transactional: boolean;
  sendShare: number;
  validitySeconds: number | null;
  audienceSource: string | null;
  uploadId: string | null;
  plannerId: string | null;
  audienceReady: boolean;
  rowsTotal: number;
  rowsInvalid: number;
  /** The rows the audience's upload read (rowsTotal + rowsDuplicate); null for an audience uploaded before it was kept. */
  rowsRead: number | null;
  /** Rows of that upload repeating an earlier row's number (not in the ledger); null as rowsRead. */
  rowsDuplicate: number | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export type NewCampaign = Pick<
  CampaignRow,
  'botId' | 'name' | 'templateId' | 'senderId' | 'mapping' | 'startAt' | 'timeZone' | 'quietFromMinute' | 'quietToMinute' | 'frequencyCap' | 'transactional' | 'sendShare' | 'validitySeconds'
>;

/** One audience row as staged: valid rows carry the values the message is sent with, invalid ones their error. */
export interface StagedRecipient {
  rowNo: number;
  /** Digits only; for a row whose number is unusable, `row:<n>` (never sent). */
  recipient: string;
  messageId: string;
  timeZone: string | null;
  values: unknown;
  error: string | null;
}

/** StagedBatch.full: the text of a batch is written before it reaches this, so its buffer stays about this size. */
const STAGED_BATCH_MAX_BYTES = 512 * 1024;

/**
 * Rows to stage in one statement, each turned into JSON as it is added and copied into one buffer the batch
 * keeps for the whole upload (outside V8's heap); the statement gets those bytes as its json parameter.
 * Why not a string: what an upload has alive while a batch is written is promoted to V8's old generation
 * at a young GC, and freed only by a full GC, which V8 puts off while the heap is below a limit of up to
 * several times its live size. Sampled through a 200,000-row upload (`BENCH_HEAP_SAMPLING=1 npm run
 * bench:campaign-upload`), the batches' text was 50 of the 66 MiB that reached the old generation, whether
 * as pg's array literals, one JSON string, or its copy made flat in pg's serializer; the rows' objects were
 * most of the rest, and they now die once their row is in the buffer. Each batch's bytes are valid until
 * the next add(): one batch is in flight at most, and pg has copied them into its message before the
 * statement's promise settles.
 */
export class StagedBatch {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private used = 0;
  private rows = 0;

  get length(): number {
    return this.rows;
  }

  /** Whether the batch should be written now: at `maxRows` rows, or once its text passes 512 KiB. */
  full(maxRows: number): boolean {
    return this.rows >= maxRows || this.used >= STAGED_BATCH_MAX_BYTES;
  }

  add(r: StagedRecipient): void {
    // An error quotes the row's cell, cut at 40-80 characters: a cut through a surrogate pair would leave half
    // of it, which Postgres' JSON parser refuses (as text it became U+FFFD).
    const error = r.error === null || (r.error as string & { isWellFormed(): boolean }).isWellFormed() ? r.error : (r.error as string & { toWellFormed(): string }).toWellFormed();
    const part = JSON.stringify({ n: r.rowNo, r: r.recipient, m: r.messageId, z: r.timeZone, v: r.values, e: error });
    const need = this.used + Buffer.byteLength(part) + 2;
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(grown, 0, 0, this.used);
      this.buf = grown;
    }
    this.buf[this.used++] = this.rows++ === 0 ? 0x5b : 0x2c; // '[' first, ',' between rows
    this.used += this.buf.write(part, this.used);
  }

  /** The rows as one JSON array (UTF-8, for json_to_recordset), and the batch emptied for its next rows. */
  take(): Buffer {
    if (this.rows === 0) return Buffer.from('[]');
    this.buf[this.used++] = 0x5d; // ']'
    const json = this.buf.subarray(0, this.used);
    this.used = 0;
    this.rows = 0;
    return json;
  }
}

/** A queued recipient whose dispatch job may have been lost with Redis (CampaignRepository.unsettled). */
export interface UnsettledRecipient extends AdmittedRecipient {
  campaignId: string;
  /** Seconds of the message's validity left (counted from its admission). */
  validityLeft: number;
}

/** A recipient the planner admits: its job is built from this. */
export interface AdmittedRecipient {
  recipient: string;
  messageId: string;
  values: { bodyParameters?: string[]; cards: Array<{ mediaLink: string; bodyParameters?: string[]; buttons?: unknown[] }> };
}

export interface PreviewRecipient {
  rowNo: number;
  recipient: string;
  timeZone: string | null;
  values: AdmittedRecipient['values'] | null;
  error: string | null;
}

const COLUMNS = `c."id"::text AS "id", c."bot_id"::text AS "botId", c."name", c."template_id"::text AS "templateId", c."sender_id"::text AS "senderId",
  c."status"::text AS "status", c."mapping", c."start_at" AS "startAt", c."time_zone" AS "timeZone", c."quiet_from_minute" AS "quietFromMinute",
  c."quiet_to_minute" AS "quietToMinute", c."frequency_cap" AS "frequencyCap", c."transactional", c."send_share" AS "sendShare",
  c."validity_seconds" AS "validitySeconds", c."audience_source" AS "audienceSource", c."upload_id"::text AS "uploadId", c."planner_id"::text AS "plannerId",
  c."audience_ready" AS "audienceReady", c."rows_total" AS "rowsTotal", c."rows_invalid" AS "rowsInvalid", c."rows_read" AS "rowsRead",
  c."rows_duplicate" AS "rowsDuplicate", c."created_at" AS "createdAt",
  c."started_at" AS "startedAt", c."finished_at" AS "finishedAt"`;

/** Minutes after midnight in the recipient's zone (the campaign's when the row has none). */
const LOCAL_MINUTE = `(EXTRACT(HOUR FROM (now() AT TIME ZONE COALESCE(r."time_zone", c."time_zone"))) * 60 + EXTRACT(MINUTE FROM (now() AT TIME ZONE COALESCE(r."time_zone", c."time_zone"))))`;
/** True when the campaign has quiet hours and the recipient's local time is in them (a range with from > to wraps midnight). */
const IN_QUIET_HOURS = `(c."quiet_from_minute" IS NOT NULL AND CASE WHEN c."quiet_from_minute" <= c."quiet_to_minute"
    THEN ${LOCAL_MINUTE} >= c."quiet_from_minute" AND ${LOCAL_MINUTE} < c."quiet_to_minute"
    ELSE ${LOCAL_MINUTE} >= c."quiet_from_minute" OR ${LOCAL_MINUTE} < c."quiet_to_minute" END)`;

/**
 * Campaigns and their ledger (`campaign_recipients`: one row per campaign and recipient, its message id
 * derived from both). Uploads are staged under an upload id: rows of an upload that was replaced or
 * never finished are never the audience, so a gateway restart mid-upload leaves a campaign that cannot
 * start until an upload completes.
 */
@Injectable()
export class CampaignRepository {
  constructor(private readonly db: PrismaService) {}

  async create(c: NewCampaign): Promise<CampaignRow> {
    const { rows } = await this.db.query<CampaignRow>({
      text: `INSERT INTO "campaigns" AS c ("id", "bot_id", "name", "template_id", "sender_id", "mapping", "start_at", "time_zone", "quiet_from_minute", "quiet_to_minute",
               "frequency_cap", "transactional", "send_share", "validity_seconds")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING ${COLUMNS}`,
      values: [
        randomUUID(),
        c.botId,
        c.name,
        c.templateId,
        c.senderId,
        JSON.stringify(c.mapping),
        c.startAt,
        c.timeZone,
        c.quietFromMinute,
        c.quietToMinute,
        c.frequencyCap,
        c.transactional,
        c.sendShare,
        c.validitySeconds,
      ],
    });
    return rows[0];
  }

  async find(botId: string, id: string): Promise<CampaignRow | null> {
    const { rows } = await this.db.query<CampaignRow>({ text: `SELECT ${COLUMNS} FROM "campaigns" c WHERE c."id" = $1::uuid AND c."bot_id" = $2::uuid`, values: [id, botId] });
    return rows[0] ?? null;
  }

  async byId(id: string): Promise<CampaignRow | null> {
    const { rows } = await this.db.query<CampaignRow>({ name: 'campaign-by-id', text: `SELECT ${COLUMNS} FROM "campaigns" c WHERE c."id" = $1::uuid`, values: [id] });
    return rows[0] ?? null;
  }

  async list(botId: string, limit = 100): Promise<CampaignRow[]> {
    const { rows } = await this.db.query<CampaignRow>({
      text: `SELECT ${COLUMNS} FROM "campaigns" c WHERE c."bot_id" = $1::uuid ORDER BY c."created_at" DESC LIMIT $2`,
      values: [botId, limit],
    });
    return rows;
  }

  /** Starts a new upload of a draft campaign's audience, replacing any earlier one (its rows are deleted); null when not a draft. */
  async beginUpload(id: string): Promise<string | null> {
    const uploadId = randomUUID();
    const client = await this.db.pool.connect();
    try {
      await client.query('BEGIN');
      const { rowCount } = await client.query(
        `UPDATE "campaigns" SET "upload_id" = $2, "audience_ready" = false, "rows_total" = 0, "rows_invalid" = 0, "rows_read" = NULL, "rows_duplicate" = NULL,
           "updated_at" = now() WHERE "id" = $1 AND "status" = 'draft'`,
        [id, uploadId],
      );
      if (!rowCount) {
        await client.query('ROLLBACK');
        return null;
      }
      await client.query(`DELETE FROM "campaign_recipients" WHERE "campaign_id" = $1`, [id]);
      await client.query('COMMIT');
      return uploadId;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Stages a batch of upload `uploadId`, one statement; a number already staged keeps its first row. The
   * count inserted, or null when the upload was replaced meanwhile (nothing is inserted then).
   */
  async stage(campaignId: string, botId: string, uploadId: string, batch: StagedBatch): Promise<number | null> {
    if (batch.length === 0) return 0;
    const rows = batch.take();
    const { rows: out } = await this.db.query<{ current: boolean; inserted: string }>({
      name: 'campaign-stage-json',
      // FOR SHARE: a new upload (beginUpload's UPDATE) waits for a batch in flight and then deletes its rows,
      // and a batch that comes after it finds the upload replaced; without the lock a batch of a cut-off
      // upload could insert from a snapshot taken before the replacement and leave stale rows.
      // The rows come as one JSON text (StagedBatch says why), as bytes: pg sends a Buffer in binary format,
      // which for json is the text itself.
      text: `WITH current AS (SELECT 1 FROM "campaigns" WHERE "id" = $1::uuid AND "upload_id" = $3::uuid AND "status" = 'draft' FOR SHARE),
             ins AS (
               INSERT INTO "campaign_recipients" ("campaign_id", "bot_id", "upload_id", "row_no", "recipient", "message_id", "time_zone", "values", "error", "status")
               SELECT $1::uuid, $2::uuid, $3::uuid, r.n, r.r, r.m, r.z, r.v, r.e,
                      CASE WHEN r.e IS NULL THEN 'pending' ELSE 'invalid' END::"CampaignRecipientStatus"
               FROM json_to_recordset($4::json) AS r(n int, r text, m uuid, z text, v jsonb, e text)
               WHERE EXISTS (SELECT 1 FROM current)
               ON CONFLICT DO NOTHING RETURNING 1)
             SELECT EXISTS (SELECT 1 FROM current) AS current, (SELECT count(*) FROM ins) AS inserted`,
      values: [campaignId, botId, uploadId, rows],
    });
    return out[0].current ? Number(out[0].inserted) : null;
  }

  /**
   * Makes upload `uploadId` the campaign's audience, with the counts of what it read (`rows`, of which
   * `duplicates` repeated a number and are not in the ledger); false when it was replaced meanwhile.
   */
  async finishUpload(id: string, uploadId: string, source: string, read: { rows: number; duplicates: number }): Promise<boolean> {
    const { rowCount } = await this.db.query({
      text: `UPDATE "campaigns" c SET "audience_ready" = true, "audience_source" = $3, "updated_at" = now(), "rows_read" = $4, "rows_duplicate" = $5,
               "rows_total" = (SELECT count(*) FROM "campaign_recipients" r WHERE r."campaign_id" = c."id"),
               "rows_invalid" = (SELECT count(*) FROM "campaign_recipients" r WHERE r."campaign_id" = c."id" AND r."status" = 'invalid')
             WHERE c."id" = $1::uuid AND c."upload_id" = $2::uuid AND c."status" = 'draft'`,
      values: [id, uploadId, source, read.rows, read.duplicates],
    });
    return rowCount === 1;
  }

  /** The first rows of the audience, and the first rows with errors. */
  async preview(id: string, limit: number): Promise<{ first: PreviewRecipient[]; errors: PreviewRecipient[] }> {
    const cols = `r."row_no" AS "rowNo", r."recipient", r."time_zone" AS "timeZone", r."values", r."error"`;
    const [first, errors] = await Promise.all([
      this.db.query<PreviewRecipient>({ text: `SELECT ${cols} FROM "campaign_recipients" r WHERE r."campaign_id" = $1 ORDER BY r."row_no" LIMIT $2`, values: [id, limit] }),
      this.db.query<PreviewRecipient>({
        text: `SELECT ${cols} FROM "campaign_recipients" r WHERE r."campaign_id" = $1 AND r."status" = 'invalid' ORDER BY r."row_no" LIMIT $2`,
        values: [id, limit],
      }),
    ]);
    return { first: first.rows, errors: errors.rows };
  }

  /**
   * Moves the campaign from one of `from` to `to` (with its timestamps, and `plannerId` as its planner when
   * given); the row after, or null when it was in none of them.
   */
  async transition(botId: string, id: string, from: readonly CampaignStatusName[], to: CampaignStatusName, plannerId?: string): Promise<CampaignRow | null> {
    const { rows } = await this.db.query<CampaignRow>({
      text: `UPDATE "campaigns" c SET "status" = $4::"CampaignStatus", "updated_at" = now(), "planner_id" = COALESCE($5::uuid, c."planner_id"),
               "started_at" = CASE WHEN $4 IN ('scheduled', 'running') THEN COALESCE(c."started_at", now()) ELSE c."started_at" END,
               "finished_at" = CASE WHEN $4 IN ('cancelled', 'completed') THEN now() ELSE c."finished_at" END
             WHERE c."id" = $1::uuid AND c."bot_id" = $2::uuid AND c."status"::text = ANY($3::text[]) RETURNING ${COLUMNS}`,
      values: [id, botId, from, to, plannerId ?? null],
    });
    return rows[0] ?? null;
  }

  /** Cancels what a cancelled campaign had not admitted yet. */
  async cancelPending(id: string): Promise<number> {
    const { rowCount } = await this.db.query({ text: `UPDATE "campaign_recipients" SET "status" = 'cancelled' WHERE "campaign_id" = $1 AND "status" = 'pending'`, values: [id] });
    return rowCount ?? 0;
  }

  /** A queued recipient of a cancelled campaign whose message was never claimed: cancelled rather than sent. */
  async cancelUnsent(messageId: string): Promise<void> {
    await this.db.query({
      name: 'campaign-cancel-unsent',
      text: `UPDATE "campaign_recipients" SET "status" = 'cancelled' WHERE "message_id" = $1::uuid AND "status" = 'queued'
               AND NOT EXISTS (SELECT 1 FROM "messages" m WHERE m."id" = $1::uuid)`,
      values: [messageId],
    });
  }

  /**
   * One planner round: up to `limit` pending recipients outside their quiet hours, in row order. Those
   * over the frequency cap become `capped`; the others `queued`, and `enqueue` gets them before the
   * transaction commits, so a crash before the commit leaves them pending (queued again under the same
   * job ids, which BullMQ and the message claim both refuse to send twice) and none is ever admitted
   * without its job. A capped campaign takes the bot's advisory lock: two campaigns' rounds cannot both
   * count the same user under the cap.
   */
  async admit(c: CampaignRow, limit: number, enqueue: (admitted: AdmittedRecipient[]) => Promise<void>): Promise<{ admitted: number; capped: number }> {
    const capped = c.frequencyCap !== null && !c.transactional;
    const client = await this.db.pool.connect();
    try {
      await client.query('BEGIN');
      if (capped) await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('campaign-cap:' || $1, 0))`, [c.botId]);
      const { rows } = await client.query<AdmittedRecipient & { recent: string }>({
        name: 'campaign-admit-candidates',
        text: `SELECT r."recipient", r."message_id"::text AS "messageId", r."values",
                 CASE WHEN $3 THEN (SELECT count(*) FROM "campaign_recipients" o WHERE o."bot_id" = r."bot_id" AND o."recipient" = r."recipient"
                   AND o."counts_for_cap" AND o."admitted_at" > now() - interval '24 hours') ELSE 0 END AS "recent"
               FROM "campaign_recipients" r JOIN "campaigns" c ON c."id" = r."campaign_id"
               WHERE r."campaign_id" = $1::uuid AND r."status" = 'pending' AND c."status" = 'running' AND NOT ${IN_QUIET_HOURS}
               ORDER BY r."row_no" LIMIT $2 FOR UPDATE OF r SKIP LOCKED`,
        values: [c.id, limit, capped],
      });
      const over = capped ? rows.filter((r) => Number(r.recent) >= c.frequencyCap!) : [];
      const admitted = capped ? rows.filter((r) => Number(r.recent) < c.frequencyCap!) : rows;
      if (over.length) {
        await client.query(`UPDATE "campaign_recipients" SET "status" = 'capped', "error" = $3 WHERE "campaign_id" = $1 AND "recipient" = ANY($2::text[])`, [
          c.id,
          over.map((r) => r.recipient),
          `frequency cap: ${c.frequencyCap} campaign messages in 24 h reached`,
        ]);
      }
      if (admitted.length) {
        await client.query(`UPDATE "campaign_recipients" SET "status" = 'queued', "admitted_at" = now(), "counts_for_cap" = $3 WHERE "campaign_id" = $1 AND "recipient" = ANY($2::text[])`, [
          c.id,
          admitted.map((r) => r.recipient),
          !c.transactional,
        ]);
        await enqueue(admitted.map(({ recipient, messageId, values }) => ({ recipient, messageId, values })));
      }
      await client.query('COMMIT');
      return { admitted: admitted.length, capped: over.length };
    } catch (err) {
      await rollback(client);
      throw err;
    } finally {
      client.release();
    }
  }

  /** Campaigns whose planner should be running (a worker's start-up makes sure each has its job). */
  async active(): Promise<Array<{ id: string; plannerId: string }>> {
    const { rows } = await this.db.query<{ id: string; plannerId: string }>({
      text: `SELECT "id"::text AS "id", "planner_id"::text AS "plannerId" FROM "campaigns" WHERE "status" IN ('scheduled', 'running') AND "planner_id" IS NOT NULL`,
    });
    return rows;
  }

  /**
   * Admitted recipients (ledger `queued`) whose message is not settled: no message row (never claimed), or
   * one whose last attempt ended with a known outcome (`queued`: throttled, 5xx, parked), or one left
   * `processing` for longer than `stuckMs` (its worker or its job is gone). Their dispatch jobs may have been
   * lost with Redis; the recovery sweep re-adds those it finds missing. Only campaigns that have started,
   * recipients admitted more than `graceMs` ago and still within their message's validity (an older one
   * must not be sent), the oldest first. Cost: reads the campaign's queued rows admitted within the
   * validity (4 h by default) by the (campaign, status) index, and each one's message by its key.
   */
  async unsettled(graceMs: number, stuckMs: number, limit: number): Promise<UnsettledRecipient[]> {
    const { rows } = await this.db.query<UnsettledRecipient>({
      name: 'campaign-unsettled',
      text: `SELECT r."campaign_id"::text AS "campaignId", r."recipient", r."message_id"::text AS "messageId", r."values",
               floor(COALESCE(c."validity_seconds", ${14_400}) - EXTRACT(EPOCH FROM (now() - r."admitted_at")))::int AS "validityLeft"
             FROM "campaigns" c JOIN "campaign_recipients" r ON r."campaign_id" = c."id" AND r."status" = 'queued'
             LEFT JOIN "messages" m ON m."id" = r."message_id"
             WHERE c."status" <> 'draft' AND (c."finished_at" IS NULL OR c."finished_at" > now() - make_interval(secs => COALESCE(c."validity_seconds", ${14_400})))
               AND r."admitted_at" < now() - make_interval(secs => $1::float8 / 1000)
               AND r."admitted_at" > now() - make_interval(secs => COALESCE(c."validity_seconds", ${14_400}) - 1)
               AND (m."id" IS NULL OR m."status" = 'queued' OR (m."status" = 'processing' AND m."updated_at" < now() - make_interval(secs => $2::float8 / 1000)))
             ORDER BY r."admitted_at" LIMIT $3`,
      values: [graceMs, stuckMs, limit],
    });
    return rows;
  }

  /**
   * For the messaging limit check: unique recipients the sender has messaged in the last 24 hours (its
   * bot's messages through it, all of them templates, so business-initiated; those failed do not count,
   * those still queued do), and the campaign's recipients still to send who are not among them.
   */
  async messagingLimitCounts(c: Pick<CampaignRow, 'id' | 'botId' | 'senderId'>): Promise<{ messaged: number; newRecipients: number }> {
    const { rows } = await this.db.query<{ messaged: string; fresh: string }>({
      name: 'campaign-messaging-limit-counts',
      text: `WITH recent AS (
               SELECT DISTINCT m."recipient" FROM "messages" m
               WHERE m."bot_id" = $2::uuid AND m."created_at" > now() - interval '24 hours' AND m."sender_id" = $3::uuid AND m."status" <> 'failed')
             SELECT (SELECT count(*) FROM recent) AS messaged,
                    (SELECT count(*) FROM "campaign_recipients" r WHERE r."campaign_id" = $1::uuid AND r."status" = 'pending'
                       AND NOT EXISTS (SELECT 1 FROM recent x WHERE x."recipient" = r."recipient")) AS fresh`,
      values: [c.id, c.botId, c.senderId],
    });
    return { messaged: Number(rows[0].messaged), newRecipients: Number(rows[0].fresh) };
  }

  /** Whether any recipient is still pending (all of them in quiet hours, say). */
  async hasPending(id: string): Promise<boolean> {
    const { rows } = await this.db.query({ text: `SELECT 1 FROM "campaign_recipients" WHERE "campaign_id" = $1 AND "status" = 'pending' LIMIT 1`, values: [id] });
    return rows.length > 0;
  }

  /** A running campaign with nothing pending: completed (its messages may still be in flight). */
  async completeIfDrained(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query({
      text: `UPDATE "campaigns" SET "status" = 'completed', "finished_at" = now(), "updated_at" = now()
             WHERE "id" = $1 AND "status" = 'running' AND NOT EXISTS (SELECT 1 FROM "campaign_recipients" WHERE "campaign_id" = $1 AND "status" = 'pending')`,
      values: [id],
    });
    return rowCount === 1;
  }

  /** A scheduled campaign whose start time has come: running. */
  async runIfDue(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query({
      text: `UPDATE "campaigns" SET "status" = 'running', "updated_at" = now() WHERE "id" = $1 AND "status" = 'scheduled' AND ("start_at" IS NULL OR "start_at" <= now())`,
      values: [id],
    });
    return rowCount === 1;
  }

  /**
   * The ledger by state (with the pending rows in their quiet hours now) and the funnel of the campaign's
   * messages (each stage counts the messages that reached it).
   */
  async progress(id: string) {
    const [ledger, funnel] = await Promise.all([
      // One read of the ledger: pending rows are checked against the quiet hours in the same pass.
      this.db.query<{ status: string; n: string; quiet: string }>({
        text: `SELECT r."status"::text AS status, count(*) AS n, count(*) FILTER (WHERE r."status" = 'pending' AND ${IN_QUIET_HOURS}) AS quiet
               FROM "campaign_recipients" r JOIN "campaigns" c ON c."id" = r."campaign_id" WHERE r."campaign_id" = $1 GROUP BY 1`,
        values: [id],
      }),
      this.db.query<{ sent: string; delivered: string; read: string; failed: string; replied: string; admitted: string }>({
        text: `SELECT count(*) FILTER (WHERE r."admitted_at" IS NOT NULL) AS admitted,
                 count(*) FILTER (WHERE m."status" IN ('sent', 'delivered', 'read')) AS sent,
                 count(*) FILTER (WHERE m."status" IN ('delivered', 'read')) AS delivered,
                 count(*) FILTER (WHERE m."status" = 'read') AS read,
                 count(*) FILTER (WHERE m."status" = 'failed') AS failed,
                 count(*) FILTER (WHERE m."sent_at" IS NOT NULL AND EXISTS (SELECT 1 FROM "conversations" v WHERE v."bot_id" = r."bot_id" AND v."channel" = 'whatsapp'
                   AND v."user_id" = r."recipient" AND v."last_inbound_at" > m."sent_at")) AS replied
               FROM "campaign_recipients" r LEFT JOIN "messages" m ON m."id" = r."message_id"
               WHERE r."campaign_id" = $1 AND r."status" IN ('queued', 'cancelled')`,
        values: [id],
      }),
    ]);
    const by = Object.fromEntries(ledger.rows.map((r) => [r.status, Number(r.n)]));
    const f = funnel.rows[0];
    const n = (s: string) => by[s] ?? 0;
    return {
      recipients: {
        total: Object.values(by).reduce((a, b) => a + b, 0),
        pending: n('pending'),
        queued: n('queued'),
        capped: n('capped'),
        invalid: n('invalid'),
        cancelled: n('cancelled'),
        inQuietHours: Number(ledger.rows.find((r) => r.status === 'pending')?.quiet ?? 0),
      },
      funnel: { queued: Number(f.admitted), sent: Number(f.sent), delivered: Number(f.delivered), read: Number(f.read), failed: Number(f.failed), replied: Number(f.replied) },
    };
  }

  /** A page of the bot's recorded WhatsApp users (a segment), after `afterUserId`, in user-id order. */
  async whatsappUsers(botId: string, activeSince: Date | null, afterUserId: string, limit: number): Promise<Array<{ userId: string; lastInboundAt: Date | null }>> {
    const { rows } = await this.db.query<{ userId: string; lastInboundAt: Date | null }>({
      text: `SELECT "user_id" AS "userId", "last_inbound_at" AS "lastInboundAt" FROM "conversations"
             WHERE "bot_id" = $1 AND "channel" = 'whatsapp' AND "user_id" > $2 AND ($3::timestamptz IS NULL OR "last_inbound_at" >= $3)
             ORDER BY "user_id" LIMIT $4`,
      values: [botId, afterUserId, activeSince, limit],
    });
    return rows;
  }

  /** Time zone names Postgres knows (recipient zones are checked against them: the planner's SQL converts with them). */
  async timeZoneNames(): Promise<string[]> {
    const { rows } = await this.db.query<{ name: string }>({ text: `SELECT "name" FROM pg_timezone_names` });
    return rows.map((r) => r.name);
  }
}

async function rollback(client: PoolClient): Promise<void> {
  await client.query('ROLLBACK').catch(() => undefined);
}
