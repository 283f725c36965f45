import { Injectable } from '@nestjs/common';
import type { LifecycleStatus, MessageStatusChange } from '@platform/contracts';
import { Channel, MessageStatus } from '../generated/enums.js';
import { PrismaService } from '../prisma.service.js';
import { claimHeldStatusesSql } from './held-status.repository.js';
import { LOCK_IN_ORDER_SQL } from './lock-in-order.js';
import { PROVIDER_STATUS_ORDER } from './provider-status-order.js';

/** What a delivery attempt needs of its message. */
export interface ClaimedMessage {
  id: string;
  templateId: string;
  senderId: string;
  recipient: string;
  attempts: number;
}

/** A message another run claimed and may still be sending: its lease holds for `busyForMs` more. */
export interface BusyMessage {
  busyForMs: number;
}

/** A message as the gateway accepted it (from its job); the first delivery attempt creates its row. */
export interface AcceptedMessage {
  id: string;
  botId: string;
  templateId: string;
  senderId: string;
  channel: Channel;
  recipient: string;
  /** When the gateway queued it: the row's created_at. */
  acceptedAt: Date;
  /** The trigger's config.postbackUrl and config.customPayload (null when not given). */
  postbackUrl?: string | null;
  customPayload?: unknown;
  /** Its trigger's body fingerprint, when sent with an Idempotency-Key. */
  idempotencyFingerprint?: string | null;
}

/** Columns that describe a status change, for RETURNING: the postback URL is the message's, else the bot's. */
const CHANGE_COLUMNS = (m: string, status: string, at: string) =>
  `${m}."id"::text AS "messageId", ${m}."bot_id"::text AS "botId", ${status}::text AS "status", ${at} AS "at",
   ${m}."last_error_code" AS "errorCode", ${m}."last_error_text" AS "errorText", ${m}."custom_payload" AS "customPayload",
   COALESCE(${m}."postback_url", (SELECT e."url" FROM "callback_endpoints" e WHERE e."bot_id" = ${m}."bot_id" AND e."kind" = 'postback')) AS "postbackUrl"`;

interface ChangeRow {
  messageId: string;
  botId: string;
  status: LifecycleStatus;
  at: Date;
  errorCode: string | null;
  errorText: string | null;
  customPayload: unknown;
  postbackUrl: string | null;
}

function toChange(r: ChangeRow): MessageStatusChange {
  return {
    messageId: r.messageId,
    botId: r.botId,
    status: r.status,
    at: new Date(r.at).toISOString(),
    error: r.status === 'failed' ? { code: r.errorCode, text: r.errorText ?? '' } : null,
    postbackUrl: r.postbackUrl,
    customPayload: r.customPayload ?? null,
  };
}

/** Whether provider update `u` supersedes message `m`'s status in the order `order`. */
const SUPERSEDES = (order: string) => `COALESCE(array_position(${order}::"MessageStatus"[], m."status"), 0) < array_position(${order}::"MessageStatus"[], u.status)`;

/**
 * Moves message `m` to the status of provider update `u` (columns wamid, status, delivered_at, read_at,
 * error_code, error_text) if it supersedes the current one in the order `$order`; times already recorded
 * are kept. `from` names the updates; returns the changes. Two CTEs: `locked` (the rows, locked in id
 * order) and `applied`.
 */
const APPLY_STATUS_SQL = (from: string, order: string, extraWhere = 'TRUE') =>
  `${LOCK_IN_ORDER_SQL('messages', 'm', '"id"', from, `${extraWhere} AND ${SUPERSEDES(order)}`)},
   applied AS (UPDATE "messages" AS m SET "status" = u.status,
     "delivered_at" = COALESCE(m."delivered_at", u.delivered_at), "read_at" = COALESCE(m."read_at", u.read_at),
     "last_error_code" = CASE WHEN u.status = 'failed' THEN u.error_code ELSE m."last_error_code" END,
     "last_error_text" = CASE WHEN u.status = 'failed' THEN u.error_text ELSE m."last_error_text" END,
     "updated_at" = now()
   FROM ${from} AS u
   WHERE m."provider_message_id" = u.wamid AND ${extraWhere} AND ${SUPERSEDES(order)} AND m."id" IN (SELECT "key" FROM locked)
   RETURNING ${CHANGE_COLUMNS('m', 'm."status"', `COALESCE(CASE m."status" WHEN 'delivered' THEN u.delivered_at WHEN 'read' THEN u.read_at END, now())`)})`;

const payloadJson = (m: AcceptedMessage) => (m.customPayload === undefined || m.customPayload === null ? null : JSON.stringify(m.customPayload));

/** A status the provider reported for one of its message ids (a WhatsApp status webhook). */
export interface ProviderStatusUpdate {
  providerMessageId: string;
  status: MessageStatus;
  deliveredAt: Date | null;
  readAt: Date | null;
  errorCode: string | null;
  errorText: string | null;
}

@Injectable()
export class MessageRepository {
  constructor(private readonly db: PrismaService) {}

  findForBot(botId: string, id: string) {
    return this.db.message.findFirst({ where: { id, botId } });
  }

  /**
   * Claims messages for one delivery attempt each, creating the row on the first one, each leased to
   * this run for `leaseMs`; per message, the claimed message, `busy` while another run's lease holds
   * (a job whose lock lapsed while its worker still sends is run again by the queue: that run must not
   * send it too), or null when it already reached a final state or its template or sender is gone, or
   * (at most once) another run left it mid-attempt and its lease ended. Called with a turn's worth of
   * messages at once (TickBatcher).
   */
  async startAttempts(messages: readonly AcceptedMessage[], leaseMs: number, atMostOnce = false): Promise<Array<ClaimedMessage | BusyMessage | null>> {
    const column = <K extends keyof AcceptedMessage>(k: K) => messages.map((m) => m[k]);
    const { rows } = await this.db.query<ClaimedMessage>({
      // At most once (campaign messages): a message still `processing` was claimed by a run that never recorded its outcome.
      name: atMostOnce ? 'messages-start-attempts-once' : 'messages-start-attempts',
      text: `INSERT INTO "messages" ("id", "bot_id", "template_id", "sender_id", "channel", "recipient", "status", "attempts", "created_at", "updated_at", "postback_url", "custom_payload", "idempotency_fingerprint", "claimed_until")
             SELECT m.id, m.bot_id, m.template_id, m.sender_id, m.channel, m.recipient, 'processing', 1, m.accepted_at, now(), m.postback_url, m.custom_payload, m.fingerprint, now() + $11::int * interval '1 millisecond'
             FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::"Channel"[], $6::text[], $7::timestamptz[], $8::text[], $9::jsonb[], $10::text[])
               AS m(id, bot_id, template_id, sender_id, channel, recipient, accepted_at, postback_url, custom_payload, fingerprint)
             WHERE EXISTS (SELECT 1 FROM "templates" t WHERE t."id" = m.template_id AND t."bot_id" = m.bot_id)
               AND EXISTS (SELECT 1 FROM "channel_senders" s WHERE s."id" = m.sender_id AND s."bot_id" = m.bot_id)
             ON CONFLICT ("id") DO UPDATE SET "status" = 'processing', "attempts" = "messages"."attempts" + 1, "updated_at" = now(), "claimed_until" = EXCLUDED."claimed_until"
               WHERE "messages"."status" NOT IN ('sent', 'delivered', 'read', 'failed'${atMostOnce ? ", 'processing'" : ''})
                 AND NOT ("messages"."status" = 'processing' AND "messages"."claimed_until" IS NOT NULL AND "messages"."claimed_until" > now())
             RETURNING "id"::text AS "id", "template_id"::text AS "templateId", "sender_id"::text AS "senderId", "recipient", "attempts"`,
      values: [
        column('id'),
        column('botId'),
        column('templateId'),
        column('senderId'),
        column('channel'),
        column('recipient'),
        column('acceptedAt'),
        messages.map((m) => m.postbackUrl ?? null),
        messages.map(payloadJson),
        messages.map((m) => m.idempotencyFingerprint ?? null),
        Math.ceil(leaseMs),
      ],
    });
    const byId = new Map<string, ClaimedMessage | BusyMessage>(rows.map((r) => [r.id, r]));
    // Rare (a message final already, or another run's): only then a second statement says which are busy.
    const unclaimed = messages.filter((m) => !byId.has(m.id)).map((m) => m.id);
    if (unclaimed.length > 0) for (const busy of await this.busy(unclaimed)) byId.set(busy.id, { busyForMs: busy.busyForMs });
    return messages.map((m) => byId.get(m.id) ?? null);
  }

  /** Which of these messages another run's lease holds, and for how long still. */
  private async busy(ids: readonly string[]): Promise<Array<{ id: string; busyForMs: number }>> {
    const { rows } = await this.db.query<{ id: string; busyForMs: number }>({
      name: 'messages-busy',
      text: `SELECT "id"::text AS "id", ceil(extract(epoch FROM ("claimed_until" - now())) * 1000)::int AS "busyForMs"
             FROM "messages" WHERE "id" = ANY($1::uuid[]) AND "status" = 'processing' AND "claimed_until" > now()`,
      values: [ids],
    });
    return rows;
  }

  /**
   * Records successful sends, many in one statement; per send, its status changes: `sent` (none if the
   * row is gone, or if Meta's statuses of that very send moved it on already: a recording retried never
   * moves a message back), then those of the statuses Meta reported before the send was recorded (held, see
   * HeldStatusRepository). The first statement also says which sends have statuses held; only then does
   * a second statement apply them (committed after the sends, it sees every status held before). Most
   * sends have none, and the dispatch path pays no second statement for them. A status held while the
   * first statement runs is applied by the webhook's own looks after its hold (MessageReceiptsService).
   */
  async markSentMany(sends: ReadonlyArray<{ id: string; providerMessageId: string }>): Promise<MessageStatusChange[][]> {
    const { rows } = await this.db.query<ChangeRow & { held: boolean }>({
      name: 'messages-mark-sent',
      text: `UPDATE "messages" AS m SET "status" = 'sent', "provider_message_id" = s.wamid, "sent_at" = now(), "updated_at" = now(),
             "last_error_code" = NULL, "last_error_text" = NULL
             FROM unnest($1::uuid[], $2::text[]) AS s(id, wamid)
             WHERE m."id" = s.id AND NOT (m."provider_message_id" = s.wamid AND m."status" IN ('delivered', 'read', 'failed'))
             RETURNING ${CHANGE_COLUMNS('m', "'sent'", 'm."sent_at"')},
               EXISTS (SELECT 1 FROM "held_provider_statuses" h WHERE h."wamid" = s.wamid) AS "held"`,
      values: [sends.map((s) => s.id), sends.map((s) => s.providerMessageId)],
    });
    const byId = new Map(rows.map((r) => [r.messageId, [toChange(r)]]));
    const held = new Set(rows.filter((r) => r.held).map((r) => r.messageId));
    const recorded = sends.filter((s) => held.has(s.id)).map((s) => s.providerMessageId);
    for (const change of await this.applyHeldStatuses(recorded)) byId.get(change.messageId)?.push(change);
    return sends.map((s) => byId.get(s.id) ?? []);
  }

  /**
   * Applies the held statuses of these provider message ids whose message is recorded (and forgets
   * them), as applyProviderStatuses would have; expired ones are forgotten unapplied. The changes.
   */
  async applyHeldStatuses(providerMessageIds: readonly string[]): Promise<MessageStatusChange[]> {
    if (providerMessageIds.length === 0) return [];
    const { rows } = await this.db.query<ChangeRow>({
      name: 'messages-apply-held-statuses',
      text: `WITH held AS (${claimHeldStatusesSql('messages')}), ${APPLY_STATUS_SQL('held', '$2', 'u.fresh')}
             SELECT * FROM applied`,
      values: [providerMessageIds, PROVIDER_STATUS_ORDER],
    });
    return rows.map(toChange);
  }

  /**
   * Fails a message its job will not deliver, though no attempt recorded that (BullMQ failed the job for
   * stalling too often): creates the row from the job when there is none yet, and leaves a message
   * already final untouched. The status change when the message changed, else null.
   */
  async failUnlessFinal(m: AcceptedMessage, code: string, text: string): Promise<MessageStatusChange | null> {
    const { rows } = await this.db.query<ChangeRow>({
      name: 'messages-fail-unless-final',
      text: `INSERT INTO "messages" AS m ("id", "bot_id", "template_id", "sender_id", "channel", "recipient", "status", "attempts", "last_error_code", "last_error_text", "created_at", "updated_at", "postback_url", "custom_payload", "idempotency_fingerprint")
             SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::"Channel", $6, 'failed', 0, $7, $8, $9::timestamptz, now(), $10, $11::jsonb, $12
             WHERE EXISTS (SELECT 1 FROM "templates" t WHERE t."id" = $3::uuid AND t."bot_id" = $2::uuid)
               AND EXISTS (SELECT 1 FROM "channel_senders" s WHERE s."id" = $4::uuid AND s."bot_id" = $2::uuid)
             ON CONFLICT ("id") DO UPDATE SET "status" = 'failed', "last_error_code" = EXCLUDED."last_error_code",
               "last_error_text" = EXCLUDED."last_error_text", "updated_at" = now()
               WHERE m."status" NOT IN ('sent', 'delivered', 'read', 'failed')
             RETURNING ${CHANGE_COLUMNS('m', "'failed'", 'm."updated_at"')}`,
      values: [m.id, m.botId, m.templateId, m.senderId, m.channel, m.recipient, code, text.slice(0, 1000), m.acceptedAt, m.postbackUrl ?? null, payloadJson(m), m.idempotencyFingerprint ?? null],
    });
    return rows[0] ? toChange(rows[0]) : null;
  }

  /**
   * An at-most-once message whose attempt ended with a known outcome that allows another (its sender's
   * second was full, Meta throttled or answered 5xx): `queued` again, so the next claim may take it.
   */
  async parkAttempt(id: string): Promise<void> {
    await this.db.query({
      name: 'messages-park-attempt',
      text: `UPDATE "messages" SET "status" = 'queued', "claimed_until" = NULL, "updated_at" = now() WHERE "id" = $1::uuid AND "status" = 'processing'`,
      values: [id],
    });
  }

  /**
   * Fails an at-most-once message found mid-attempt (`processing`) by a new claim: the run that claimed it
   * died, perhaps after Meta accepted it, so it is not sent again. The change, or null when it was not
   * mid-attempt (final already, or gone).
   */
  async failOutcomeUnknown(id: string, text: string): Promise<MessageStatusChange | null> {
    const { rows } = await this.db.query<ChangeRow>({
      name: 'messages-fail-outcome-unknown',
      text: `UPDATE "messages" AS m SET "status" = 'failed', "last_error_code" = 'outcome_unknown', "last_error_text" = $2, "updated_at" = now()
             WHERE m."id" = $1::uuid AND m."status" = 'processing'
             RETURNING ${CHANGE_COLUMNS('m', "'failed'", 'm."updated_at"')}`,
      values: [id, text.slice(0, 1000)],
    });
    return rows[0] ? toChange(rows[0]) : null;
  }

  /** Un-counts the attempt a claim counted, and ends its lease, for a run that ended before it sent (its sender's second was full). */
  releaseAttempt(id: string) {
    return this.db.message.update({ where: { id }, data: { attempts: { decrement: 1 }, claimedUntil: null } });
  }

  /** Records a throttling answer of Meta as the last error, un-counting the try: it was not the message's fault. */
  async recordThrottled(id: string, code: string, text: string) {
    const [row] = await this.db.$transaction([
      this.db.message.update({
        where: { id },
        data: { lastErrorCode: code, lastErrorText: text.slice(0, 1000), attempts: { decrement: 1 }, claimedUntil: null },
      }),
      this.attemptEvent(id, 'throttled', code, text),
    ]);
    return row;
  }

  /** Records an attempt's error on the message and in its timeline (message_attempt_events: only failures are written, so sends pay nothing). */
  async recordError(id: string, code: string | null, text: string, final: boolean) {
    const [row] = await this.db.$transaction([
      this.db.message.update({
        where: { id },
        // The attempt is over: its lease no longer holds the job's next run back.
        data: { lastErrorCode: code, lastErrorText: text.slice(0, 1000), claimedUntil: null, ...(final ? { status: 'failed' } : {}) },
      }),
      this.attemptEvent(id, final ? 'failed' : 'retry', code, text),
    ]);
    return row;
  }

  /** The errors of a message's attempts, oldest first (the console's timeline adds accepted, sent, delivered and read from the message). */
  attemptEvents(id: string) {
    return this.db.$queryRaw<Array<{ at: Date; attempt: number; kind: string; code: string | null; text: string | null }>>`
      SELECT at, attempt, kind, code, text FROM message_attempt_events WHERE message_id = ${id}::uuid ORDER BY at, id`;
  }

  private attemptEvent(id: string, kind: 'retry' | 'failed' | 'throttled', code: string | null, text: string) {
    return this.db.$executeRaw`INSERT INTO message_attempt_events (message_id, attempt, kind, code, text)
      SELECT id, attempts + ${kind === 'throttled' ? 1 : 0}, ${kind}, ${code}, ${text.slice(0, 1000)} FROM messages WHERE id = ${id}::uuid`;
  }

  /** The status change a message is now in (after a final recordError), for postbacks and the lifecycle stream. */
  async currentChange(id: string): Promise<MessageStatusChange | null> {
    const { rows } = await this.db.query<ChangeRow>({
      name: 'messages-current-change',
      text: `SELECT ${CHANGE_COLUMNS('m', 'm."status"', 'm."updated_at"')} FROM "messages" m WHERE m."id" = $1::uuid
               AND m."status" IN ('sent', 'delivered', 'read', 'failed')`,
      values: [id],
    });
    return rows[0] ? toChange(rows[0]) : null;
  }

  /**
   * Applies provider statuses (one per provider message id) in one statement. A message moves only
   * forward in `order` (statuses before its first entry rank lowest); times already recorded are kept.
   * Returns the provider message ids that match no message, and the status changes applied. An update
   * whose row was locked matched a message: only the others are looked up in the index again, after the
   * update, where each probe also meets the row versions the update just wrote (EXPLAIN ANALYZE at 250
   * statuses: 1,001 of the statement's 7,558 buffer hits were this lookup; bench/webhooks-explain.ts).
   */
  async applyProviderStatuses(updates: readonly ProviderStatusUpdate[], order: readonly MessageStatus[]): Promise<{ unknown: string[]; changes: MessageStatusChange[] }> {
    const column = <K extends keyof ProviderStatusUpdate>(k: K) => updates.map((u) => u[k]);
    const { rows } = await this.db.query<{ wamid: string | null } & Partial<ChangeRow>>({
      name: 'messages-apply-provider-statuses',
      text: `WITH u AS (
               SELECT * FROM unnest($1::text[], $2::"MessageStatus"[], $3::timestamptz[], $4::timestamptz[], $5::text[], $6::text[])
                 AS u(wamid, status, delivered_at, read_at, error_code, error_text)
             ), ${APPLY_STATUS_SQL('u', '$7')}
             SELECT u.wamid, NULL::text AS "messageId", NULL::text AS "botId", NULL::text AS "status", NULL::timestamptz AS "at",
               NULL::text AS "errorCode", NULL::text AS "errorText", NULL::jsonb AS "customPayload", NULL::text AS "postbackUrl"
             FROM u WHERE NOT EXISTS (SELECT 1 FROM locked l WHERE l."wamid" = u.wamid)
               AND NOT EXISTS (SELECT 1 FROM "messages" m WHERE m."provider_message_id" = u.wamid)
             UNION ALL
             SELECT NULL, a."messageId", a."botId", a."status", a."at", a."errorCode", a."errorText", a."customPayload", a."postbackUrl" FROM applied a`,
      values: [column('providerMessageId'), column('status'), column('deliveredAt'), column('readAt'), column('errorCode'), column('errorText'), order],
    });
    return {
      unknown: rows.filter((r) => r.wamid !== null).map((r) => r.wamid!),
      changes: rows.filter((r) => r.wamid === null).map((r) => toChange(r as ChangeRow)),
    };
  }
}
