import { Injectable, Logger } from '@nestjs/common';
import { WebhookDeliveryEnv } from '@platform/config';
import { BotWebhookJob, WEBHOOK_SIGNATURE_HEADER, signWebhookBody } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { BotWebhookRepository } from '@platform/database';
import { WebhookDeliveryError } from './webhook-delivery.error.js';

/** Makes one signed webhook call to a bot, with the bot's current URL and secret. */
@Injectable()
export class WebhookSender {
  private readonly logger = new Logger('WebhookSender');

  constructor(
    private readonly webhooks: BotWebhookRepository,
    private readonly box: SecretBox,
    private readonly env: WebhookDeliveryEnv,
  ) {}

  /** Resolves on a 2xx answer (or when the bot no longer has a webhook); throws otherwise. */
  async send(job: BotWebhookJob): Promise<'delivered' | 'noWebhook'> {
    const settings = await this.webhooks.find(job.botId);
    if (!settings?.url || !settings.secretEncrypted) {
      this.logger.warn(`bot ${job.botId} has no webhook any more; ${job.delivery.type} ${job.delivery.id} dropped`);
      return 'noWebhook';
    }
    const rawBody = JSON.stringify(job.delivery);
    let status: number;
    try {
      const res = await fetch(settings.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'bot-platform-webhooks/1',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(this.box.decrypt(settings.secretEncrypted), rawBody),
          'x-platform-delivery': job.delivery.id,
          'x-platform-event': job.delivery.type,
        },
        body: rawBody,
        redirect: 'manual', // a redirect is not a delivery, and is not followed to wherever it points
        signal: AbortSignal.timeout(this.env.WEBHOOK_TIMEOUT_MS),
      });
      status = res.status;
      await res.body?.cancel().catch(() => undefined);
    } catch (err) {
      const cause = (err as Error).name === 'TimeoutError' ? `no answer within ${this.env.WEBHOOK_TIMEOUT_MS} ms` : describe(err);
      throw new WebhookDeliveryError(`webhook of bot ${job.botId} unreachable: ${cause}`);
    }
    if (status < 200 || status >= 300) throw new WebhookDeliveryError(`webhook of bot ${job.botId} answered ${status}`);
    return 'delivered';
  }
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
