import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service.js';

export type CallbackKindName = 'webhook' | 'postback';

export interface CallbackEndpointRecord {
  kind: CallbackKindName;
  url: string;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export interface CallbackSecretRecord {
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousExpiresAt: Date | null;
}

export interface CallbackSettings {
  endpoints: Partial<Record<CallbackKindName, CallbackEndpointRecord>>;
  secret: CallbackSecretRecord | null;
}

/** A bot's callback endpoints (one per kind), their health, and its sealed signing secret(s). */
@Injectable()
export class CallbackSettingsRepository {
  constructor(private readonly db: PrismaService) {}

  /** Null when the bot does not exist. */
  async find(botId: string): Promise<CallbackSettings | null> {
    const bot = await this.db.bot.findUnique({
      where: { id: botId },
      select: {
        callbackEndpoints: { select: { kind: true, url: true, failingSince: true, disabledAt: true, disabledReason: true } },
        callbackSecret: { select: { secretEncrypted: true, previousSecretEncrypted: true, previousExpiresAt: true } },
      },
    });
    if (!bot) return null;
    const endpoints: CallbackSettings['endpoints'] = {};
    for (const e of bot.callbackEndpoints) endpoints[e.kind as CallbackKindName] = { ...e, kind: e.kind as CallbackKindName };
    return { endpoints, secret: bot.callbackSecret };
  }

  /** Sets the URL of one kind; a new URL starts healthy (not failing, not disabled). */
  async setUrl(botId: string, kind: CallbackKindName, url: string): Promise<void> {
    const fresh = { url, failingSince: null, disabledAt: null, disabledReason: null };
    await this.db.callbackEndpoint.upsert({ where: { botId_kind: { botId, kind } }, create: { botId, kind, ...fresh }, update: fresh });
  }

  async clearUrl(botId: string, kind: CallbackKindName): Promise<void> {
    await this.db.callbackEndpoint.deleteMany({ where: { botId, kind } });
  }

  /** Sets the signing secret outright (the first one, or a replacement that ends any rotation). */
  async setSecret(botId: string, secretEncrypted: string): Promise<void> {
    const data = { secretEncrypted, previousSecretEncrypted: null, previousExpiresAt: null };
    await this.db.callbackSecret.upsert({ where: { botId }, create: { botId, ...data }, update: data });
  }

  /**
   * Starts a rotation: the new secret signs from now on and the current one keeps signing too until
   * `previousExpiresAt`. False when the bot has no secret to rotate.
   */
  async rotateSecret(botId: string, secretEncrypted: string, previousExpiresAt: Date): Promise<boolean> {
    return this.db.$transaction(async (tx) => {
      const current = await tx.callbackSecret.findUnique({ where: { botId } });
      if (!current) return false;
      await tx.callbackSecret.update({ where: { botId }, data: { secretEncrypted, previousSecretEncrypted: current.secretEncrypted, previousExpiresAt } });
      return true;
    });
  }

  /** Ends a rotation: only the current secret signs. */
  async endRotation(botId: string): Promise<void> {
    await this.db.callbackSecret.updateMany({ where: { botId }, data: { previousSecretEncrypted: null, previousExpiresAt: null } });
  }

  /** Removes the bot's webhook and its secret (postbacks, if any, then go unsigned and are not sent). */
  async clearAll(botId: string): Promise<void> {
    await this.db.$transaction([this.db.callbackEndpoint.deleteMany({ where: { botId } }), this.db.callbackSecret.deleteMany({ where: { botId } })]);
  }

  /** A 2xx from `url`: the endpoint is healthy again. */
  async markAnswered(botId: string, kind: CallbackKindName, url: string): Promise<void> {
    await this.db.callbackEndpoint.updateMany({ where: { botId, kind, url, failingSince: { not: null } }, data: { failingSince: null } });
  }

  /**
   * A failed attempt at `url`: the endpoint is failing from now unless it already was. When it has
   * failed since before `disableBefore`, it is disabled; true only for the call that disabled it, so the
   * event is reported once.
   */
  async markFailed(botId: string, kind: CallbackKindName, url: string, now: Date, disableBefore: Date, reason: string): Promise<boolean> {
    await this.db.callbackEndpoint.updateMany({ where: { botId, kind, url, failingSince: null }, data: { failingSince: now } });
    const { count } = await this.db.callbackEndpoint.updateMany({
      where: { botId, kind, url, disabledAt: null, failingSince: { lte: disableBefore } },
      data: { disabledAt: now, disabledReason: reason.slice(0, 1000) },
    });
    return count > 0;
  }
}
