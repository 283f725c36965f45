import { BadRequestException, Injectable } from '@nestjs/common';
import { WebhookUrlEnv } from '@platform/config';
import { WebhookView, generateWebhookSecret, webhookUrlProblem } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { BotWebhookRepository } from '@platform/database';

/** A bot's webhook address and signing secret, as its administrators set them. */
@Injectable()
export class WebhookSettingsService {
  constructor(
    private readonly webhooks: BotWebhookRepository,
    private readonly box: SecretBox,
    private readonly env: WebhookUrlEnv,
  ) {}

  async view(botId: string): Promise<WebhookView> {
    const settings = await this.webhooks.find(botId);
    return { url: settings?.url ?? null, secretSet: !!settings?.secretEncrypted };
  }

  /** Sets the URL; generates a secret when the bot has none or `rotate` is set, and returns it (once). */
  async set(botId: string, url: string, rotate = false): Promise<WebhookView & { secret?: string }> {
    const problem = webhookUrlProblem(url, this.env.WEBHOOK_ALLOW_HTTP);
    if (problem) throw new BadRequestException(`url ${problem}`);
    const current = await this.webhooks.find(botId);
    const secret = rotate || !current?.secretEncrypted ? generateWebhookSecret() : undefined;
    await this.webhooks.set(botId, url, secret && this.box.encrypt(secret));
    return { url, secretSet: true, ...(secret ? { secret } : {}) };
  }

  clear(botId: string): Promise<void> {
    return this.webhooks.clear(botId);
  }
}
