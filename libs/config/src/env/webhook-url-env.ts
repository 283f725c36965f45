import { BoolEnv } from '../env-decorators.js';

/** Which bot webhook URLs are accepted (by the gateway's settings endpoint and the CLI's webhook commands). */
export class WebhookUrlEnv {
  /** Accept http:// bot webhook URLs (development and tests); otherwise https only. */
  @BoolEnv()
  WEBHOOK_ALLOW_HTTP: boolean = false;
}
