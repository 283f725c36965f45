import { IsOptional, MinLength } from 'class-validator';
import type { CrossFieldRules } from '../env-loader.js';

/** Meta's status webhooks (GET/POST /webhooks/whatsapp): set both to receive delivery receipts, or neither. */
export class WhatsAppWebhookEnv implements CrossFieldRules {
  /** What Meta's verification handshake must present as hub.verify_token (chosen in the Meta app dashboard). */
  @IsOptional()
  @MinLength(8, { message: 'WHATSAPP_WEBHOOK_VERIFY_TOKEN must be at least 8 characters' })
  WHATSAPP_WEBHOOK_VERIFY_TOKEN?: string;

  /** The Meta app's secret: every webhook POST must carry its HMAC-SHA256 in X-Hub-Signature-256. */
  @IsOptional()
  @MinLength(8, { message: 'WHATSAPP_APP_SECRET must be at least 8 characters' })
  WHATSAPP_APP_SECRET?: string;

  crossFieldProblems(): string[] {
    return !this.WHATSAPP_WEBHOOK_VERIFY_TOKEN !== !this.WHATSAPP_APP_SECRET ? ['WHATSAPP_WEBHOOK_VERIFY_TOKEN and WHATSAPP_APP_SECRET must be set together (or neither)'] : [];
  }
}
