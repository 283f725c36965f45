import { IntEnv, UrlEnv } from '../env-decorators.js';

/** The WhatsApp Cloud API: the channel worker sends through it; the gateway and CLI read templates from it (template sync). */
export class WhatsAppEnv {
  /** WhatsApp Cloud API base, e.g. https://graph.facebook.com/v21.0 (the local sandbox in development). */
  @UrlEnv()
  WHATSAPP_API_BASE_URL: string = 'https://graph.facebook.com/v21.0';

  @IntEnv({ min: 100 })
  WHATSAPP_TIMEOUT_MS: number = 10000;
}
