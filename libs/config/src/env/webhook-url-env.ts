import { BoolEnv } from '../env-decorators.js';

/** Which bot webhook and postback URLs are accepted (gateway settings endpoints and trigger, CLI, channel worker at send time). */
export class WebhookUrlEnv {
  /** Accept http:// bot webhook URLs (development and tests); otherwise https only. */
  @BoolEnv()
  WEBHOOK_ALLOW_HTTP: boolean = false;

  /**
   * Let postback URLs reach private, loopback, link-local and other non-public addresses (development
   * and tests with receivers on loopback). Off, such URLs are refused when set and again at send time.
   */
  @BoolEnv()
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: boolean = false;
}
