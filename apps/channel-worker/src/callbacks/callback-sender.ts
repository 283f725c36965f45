import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { CallbackEnv, WebhookUrlEnv } from '@platform/config';
import { CallbackJob, NonPublicAddressError, UnresolvableHostError, webhookUrlProblem } from '@platform/contracts';
import type { LookupAll } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { CallbackAttemptEntry, CallbackDeliveryRepository, CallbackSecretRecord, CallbackSettingsRepository } from '@platform/database';
import { callbackHeaders } from './callback-headers.js';
import { CallbackDeliveryError } from './callback-delivery.error.js';
import { postJson } from './callback-http.js';
import { EndpointHealth } from './endpoint-health.js';

/** DNS the sender uses; a provider so that unit specs can fake it. */
export const CALLBACK_DNS = Symbol('CALLBACK_DNS');

export type CallbackOutcome = number | 'noEndpoint';

/**
 * Makes one attempt of a callback (a webhook call to a bot or a postback): checks the URL and the
 * addresses its host resolves to (again, at send time, on the addresses it connects to), signs the body
 * with the bot's valid secrets, POSTs it, and records the attempt in the delivery log and the
 * endpoint's health. A refused URL, a disabled endpoint or a missing secret ends the callback; any
 * other failure is retried by BullMQ.
 */
@Injectable()
export class CallbackSender {
  private readonly logger = new Logger('Callbacks');

  constructor(
    private readonly log: CallbackDeliveryRepository,
    private readonly settings: CallbackSettingsRepository,
    private readonly health: EndpointHealth,
    private readonly box: SecretBox,
    private readonly env: CallbackEnv,
    private readonly urls: WebhookUrlEnv,
    @Optional() @Inject(CALLBACK_DNS) private readonly lookupAll?: LookupAll,
  ) {}

  async send(job: CallbackJob, replay = false): Promise<CallbackOutcome> {
    const settings = await this.settings.find(job.botId);
    const endpoint = settings?.endpoints[job.kind];
    // Webhook calls go where the bot's webhook points now; a postback goes to the URL it was queued with.
    const url = job.url ?? endpoint?.url;
    if (!settings || !url) {
      // Usual, not a fault: a hosted bot without a mirror webhook, or a bot whose webhook was removed.
      this.logger.debug(`bot ${job.botId} has no ${job.kind} endpoint any more; ${job.event} ${job.id} dropped`);
      return 'noEndpoint';
    }
    const entry: CallbackAttemptEntry = { id: job.id, botId: job.botId, kind: job.kind, event: job.event, url, body: job.body, messageId: job.messageId, status: job.status, replay };
    if (endpoint?.url === url && endpoint.disabledAt) {
      return this.giveUp(entry, `the ${job.kind} endpoint was disabled at ${endpoint.disabledAt.toISOString()} after failing for too long; set its URL again to enable it`);
    }
    const problem = webhookUrlProblem(url, this.urls.WEBHOOK_ALLOW_HTTP);
    if (problem) return this.giveUp(entry, `${job.kind} URL ${problem}`);
    if (!settings.secret) return this.giveUp(entry, 'the bot has no signing secret (set its webhook or postback URL to get one)');

    let httpStatus: number;
    try {
      httpStatus = await postJson(new URL(url), {
        headers: callbackHeaders(job, this.validSecrets(settings.secret)),
        body: job.body,
        timeoutMs: this.env.CALLBACK_TIMEOUT_MS,
        allowPrivate: this.urls.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
        lookupAll: this.lookupAll,
      });
    } catch (err) {
      if (err instanceof NonPublicAddressError) return this.giveUp(entry, err.message);
      const cause = `unreachable: ${err instanceof UnresolvableHostError ? err.message : describe(err)}`;
      await this.failed(entry, cause);
      throw new CallbackDeliveryError(`${job.kind} ${job.id} ${cause}`);
    }
    const delivered = httpStatus >= 200 && httpStatus < 300;
    if (!delivered) {
      await this.failed(entry, `answered ${httpStatus}`, httpStatus);
      throw new CallbackDeliveryError(`${job.kind} ${job.id} answered ${httpStatus}`);
    }
    await this.log.recordAttempt(entry, { httpStatus, error: null, delivered: true });
    await this.health.answered(job.botId, job.kind, url);
    return httpStatus;
  }

  /** The current secret, and the previous one while its rotation runs. */
  private validSecrets(secret: CallbackSecretRecord, now = new Date()): string[] {
    const secrets = [this.box.decrypt(secret.secretEncrypted)];
    if (secret.previousSecretEncrypted && secret.previousExpiresAt && secret.previousExpiresAt > now) secrets.push(this.box.decrypt(secret.previousSecretEncrypted));
    return secrets;
  }

  private async failed(entry: CallbackAttemptEntry, error: string, httpStatus: number | null = null): Promise<void> {
    await this.log.recordAttempt(entry, { httpStatus, error, delivered: false });
    await this.health.failed(entry.botId, entry.kind, entry.url, error);
  }

  private async giveUp(entry: CallbackAttemptEntry, reason: string): Promise<never> {
    await this.log.recordAttempt(entry, { httpStatus: null, error: reason, delivered: false });
    this.logger.warn(`${entry.kind} ${entry.id} of bot ${entry.botId} not sent: ${reason}`);
    throw new UnrecoverableError(reason);
  }
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ?? e.message ?? String(err);
}
