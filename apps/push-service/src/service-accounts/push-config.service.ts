import { Injectable, Logger } from '@nestjs/common';
import { KeyObject } from 'node:crypto';
import { PushEnv } from '@platform/config';
import { BotConfigResponse, FCM_QUOTA_MAX, FCM_QUOTA_MIN, FcmQuotaView, PushOutcome, SaveConfigMessage } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { PushConfigRepository } from '@platform/database';
import { CredentialsRejectedError } from './credentials-rejected.error.js';
import { ServiceAccount, checkServiceAccount, parseRsaKey } from './service-account.js';

const NO_CONFIG_FOR_QUOTA = 'No push notification configuration has been saved for this bot: the FCM quota belongs to its Firebase project (save a service account first)';

/** A bot's service account, decrypted, ready to mint tokens. Lives only in memory. */
export interface LoadedPushConfig {
  botId: string;
  version: number;
  projectId: string;
  clientEmail: string;
  privateKeyId?: string;
  privateKey: KeyObject;
  tokenUri: string;
  /** FCM messages a minute for the project (the bot's own quota, else PUSH_FCM_QUOTA_PER_MINUTE); read on every load. */
  quotaPerMinute: number;
}

/** Saves, shows and loads bots' Firebase service accounts (sealed with SecretBox at rest). */
@Injectable()
export class PushConfigService {
  private readonly logger = new Logger('PushConfig');
  private readonly loaded = new Map<string, LoadedPushConfig>();

  constructor(
    private readonly configs: PushConfigRepository,
    private readonly box: SecretBox,
    private readonly env: PushEnv,
  ) {}

  /**
   * `sealedServiceAccount` was sealed by the gateway, so the document never crosses Redis (where the
   * request job is persisted) in clear. It is opened here only to be checked; that same sealed value
   * is what Postgres stores.
   */
  async save(botId: string, msg: SaveConfigMessage): Promise<PushOutcome<{ message: string; status: 'success' }>> {
    let doc: unknown;
    try {
      doc = JSON.parse(this.box.decrypt(msg.sealedServiceAccount));
    } catch {
      return { kind: 'failed', message: 'The service account could not be read by the push service (are ENCRYPTION_KEYS the same as the gateway’s?)' };
    }
    const check = checkServiceAccount(doc, { allowInsecureTokenUri: this.env.PUSH_ALLOW_INSECURE_TOKEN_URI });
    if (!check.ok) return { kind: 'invalid', message: check.problems.join('; ') };
    const sealed = msg.sealedServiceAccount;
    const row = await this.configs.save(botId, { projectId: check.account.project_id, credentialsEncrypted: sealed, keyId: SecretBox.keyIdOf(sealed) });
    this.loaded.delete(botId);
    this.logger.log(`Firebase service account saved for bot ${botId} (project ${row.projectId}, version ${row.version}, key ${row.keyId})`);
    return { kind: 'done', value: { message: 'Bot configuration saved: push notifications of this bot use the new service account', status: 'success' } };
  }

  async view(botId: string): Promise<PushOutcome<BotConfigResponse>> {
    const row = await this.configs.findByBot(botId);
    if (!row) return { kind: 'not_found', message: 'No push notification configuration has been saved for this bot' };
    const account = JSON.parse(this.box.decrypt(row.credentialsEncrypted)) as ServiceAccount;
    return {
      kind: 'done',
      value: {
        message: 'Push notification configuration of the bot (secrets are never shown)',
        status: 'success',
        notification: {
          firebaseConfig: {
            projectId: row.projectId,
            clientEmail: account.client_email,
            privateKeyId: account.private_key_id ?? null,
            savedAt: row.updatedAt.toISOString(),
          },
        },
      },
    };
  }

  /** Removes the bot's service account: its notifications fail until another is saved. */
  async remove(botId: string): Promise<PushOutcome<{ message: string; status: 'success' }>> {
    const removed = await this.configs.deleteByBot(botId);
    this.loaded.delete(botId);
    if (!removed) return { kind: 'not_found', message: 'No push notification configuration has been saved for this bot' };
    this.logger.log(`Firebase service account removed for bot ${botId}`);
    return { kind: 'done', value: { message: 'Bot configuration removed: this bot sends no push notifications until a service account is saved again', status: 'success' } };
  }

  /** The FCM quota every push service applies to the bot's Firebase project: its own, or PUSH_FCM_QUOTA_PER_MINUTE. */
  async quota(botId: string): Promise<PushOutcome<FcmQuotaView>> {
    const row = await this.configs.findByBot(botId);
    if (!row) return { kind: 'not_found', message: NO_CONFIG_FOR_QUOTA };
    return { kind: 'done', value: this.quotaView(botId, row.projectId, row.fcmQuotaPerMinute) };
  }

  /**
   * Sets the bot's FCM quota (messages a minute; null: the platform default). Each push service reads
   * it when it loads the config for a batch, so batches that start after this answer use it.
   */
  async setQuota(botId: string, perMinute: number | null): Promise<PushOutcome<FcmQuotaView & { message: string; status: 'success' }>> {
    if (perMinute !== null && !(Number.isSafeInteger(perMinute) && perMinute >= FCM_QUOTA_MIN && perMinute <= FCM_QUOTA_MAX)) {
      return { kind: 'invalid', message: `perMinute must be an integer from ${FCM_QUOTA_MIN} to ${FCM_QUOTA_MAX}, or null` };
    }
    const row = await this.configs.findByBot(botId);
    if (!row || !(await this.configs.setFcmQuota(botId, perMinute))) return { kind: 'not_found', message: NO_CONFIG_FOR_QUOTA };
    this.logger.log(`FCM quota of bot ${botId} (project ${row.projectId}) set to ${perMinute ?? `the default (${this.env.PUSH_FCM_QUOTA_PER_MINUTE})`} messages a minute`);
    return { kind: 'done', value: { message: 'FCM quota set', status: 'success', ...this.quotaView(botId, row.projectId, perMinute) } };
  }

  private quotaView(botId: string, projectId: string, perMinute: number | null): FcmQuotaView {
    return { botId, projectId, perMinute: perMinute ?? this.env.PUSH_FCM_QUOTA_PER_MINUTE, isDefault: perMinute === null };
  }

  async hasConfig(botId: string): Promise<boolean> {
    return (await this.configs.findByBot(botId)) !== null;
  }

  /** The bot's decrypted config, or null when none is saved. The parsed key is reused while the version holds. */
  async load(botId: string): Promise<LoadedPushConfig | null> {
    const row = await this.configs.findByBot(botId);
    if (!row) {
      this.loaded.delete(botId);
      return null;
    }
    const quotaPerMinute = row.fcmQuotaPerMinute ?? this.env.PUSH_FCM_QUOTA_PER_MINUTE;
    const cached = this.loaded.get(botId);
    if (cached && cached.version === row.version) {
      cached.quotaPerMinute = quotaPerMinute; // set apart from the account (push set-quota): no new version
      return cached;
    }
    const account = JSON.parse(this.box.decrypt(row.credentialsEncrypted)) as ServiceAccount;
    // Checked again: PUSH_ALLOW_INSECURE_TOKEN_URI may have been turned off since the save.
    const check = checkServiceAccount(account, { allowInsecureTokenUri: this.env.PUSH_ALLOW_INSECURE_TOKEN_URI });
    const privateKey = check.ok ? parseRsaKey(account.private_key) : null;
    if (!check.ok || !privateKey) {
      const problems = check.ok ? ['private_key is not usable'] : check.problems;
      throw new CredentialsRejectedError(`The saved Firebase service account can no longer be used: ${problems.join('; ')}`, 0, null);
    }
    const config: LoadedPushConfig = {
      botId,
      version: row.version,
      projectId: row.projectId,
      clientEmail: account.client_email,
      privateKeyId: account.private_key_id,
      privateKey,
      tokenUri: account.token_uri,
      quotaPerMinute,
    };
    this.loaded.set(botId, config);
    return config;
  }
}
