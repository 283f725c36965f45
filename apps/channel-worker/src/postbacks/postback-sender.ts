import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { PostbackEnv, WebhookUrlEnv } from '@platform/config';
import { NonPublicAddressError, PostbackJob, UnresolvableHostError, signPostback, webhookUrlProblem } from '@platform/contracts';
import type { LookupAll } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { BotWebhookRepository, PostbackRepository } from '@platform/database';
import { PostbackDeliveryError } from './postback-delivery.error.js';
import { postJson } from './postback-http.js';

/** DNS the sender uses; a provider so that unit specs can fake it. */
export const POSTBACK_DNS = Symbol('POSTBACK_DNS');

/**
 * Makes one attempt of a postback: checks the URL and the addresses its host resolves to (again, at
 * send time), signs the logged body with the bot's webhook secret (Standard Webhooks), POSTs it, and
 * records the attempt in the delivery log. A refused URL or a missing secret ends the postback; any
 * other failure is retried by BullMQ.
 */
@Injectable()
export class PostbackSender {
  private readonly logger = new Logger('Postbacks');

  constructor(
    private readonly postbacks: PostbackRepository,
    private readonly webhooks: BotWebhookRepository,
    private readonly box: SecretBox,
    private readonly env: PostbackEnv,
    private readonly urls: WebhookUrlEnv,
    @Optional() @Inject(POSTBACK_DNS) private readonly lookupAll?: LookupAll,
  ) {}

  async send(job: PostbackJob): Promise<number> {
    const problem = webhookUrlProblem(job.url, this.urls.WEBHOOK_ALLOW_HTTP);
    if (problem) return this.giveUp(job, `postback URL ${problem}`);
    const settings = await this.webhooks.find(job.botId);
    if (!settings?.secretEncrypted) return this.giveUp(job, 'the bot has no signing secret (set its webhook or postback URL to get one)');

    let httpStatus: number;
    try {
      httpStatus = await postJson(new URL(job.url), {
        headers: { 'user-agent': 'bot-platform-postbacks/1', ...signPostback(this.box.decrypt(settings.secretEncrypted), job.id, job.body) },
        body: job.body,
        timeoutMs: this.env.POSTBACK_TIMEOUT_MS,
        allowPrivate: this.urls.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
        lookupAll: this.lookupAll,
      });
    } catch (err) {
      if (err instanceof NonPublicAddressError) return this.giveUp(job, err.message);
      const cause = err instanceof UnresolvableHostError ? err.message : describe(err);
      await this.postbacks.recordAttempt(job, { httpStatus: null, error: `unreachable: ${cause}`, delivered: false });
      throw new PostbackDeliveryError(`postback ${job.id} unreachable: ${cause}`);
    }
    const delivered = httpStatus >= 200 && httpStatus < 300;
    await this.postbacks.recordAttempt(job, { httpStatus, error: delivered ? null : `answered ${httpStatus}`, delivered });
    if (!delivered) throw new PostbackDeliveryError(`postback ${job.id} answered ${httpStatus}`);
    return httpStatus;
  }

  private async giveUp(job: PostbackJob, reason: string): Promise<never> {
    await this.postbacks.recordAttempt(job, { httpStatus: null, error: reason, delivered: false });
    this.logger.warn(`postback ${job.id} of bot ${job.botId} not sent: ${reason}`);
    throw new UnrecoverableError(reason);
  }
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ?? e.message ?? String(err);
}
