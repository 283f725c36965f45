import { BoolEnv, IntEnv, UrlEnv } from '../env-decorators.js';

/** The WhatsApp Cloud API: the channel worker sends through it; the gateway and CLI read templates from it (template sync). */
export class WhatsAppEnv {
  /** WhatsApp Cloud API base, e.g. https://graph.facebook.com/v21.0 (the local sandbox in development). */
  @UrlEnv()
  WHATSAPP_API_BASE_URL: string = 'https://graph.facebook.com/v21.0';

  @IntEnv({ min: 100 })
  WHATSAPP_TIMEOUT_MS: number = 10000;

  /**
   * `false` turns the channel worker's per-number pacing off: nothing keeps a number under its rate, and
   * Meta refuses what is over it (130429). Only for measuring what pacing costs (`npm run bench:pacing-cost`).
   */
  @BoolEnv()
  WHATSAPP_PACING: boolean = true;
}
