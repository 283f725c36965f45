import { Injectable } from '@nestjs/common';
import { WhatsAppEnv } from '@platform/config';
import { GraphApiError } from './graph-api.error.js';

export interface PhoneNumberInfo {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
  /** Meta's messaging limit tier (TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED, ...); the current field. */
  whatsapp_business_manager_messaging_limit?: string;
  /** The same, as the deprecated field older Graph API versions answer. */
  messaging_limit_tier?: string;
}

/** The number's messaging limit tier from a Graph API answer (the current field, else the deprecated one), or null. */
export function messagingLimitTierOf(info: PhoneNumberInfo): string | null {
  const tier = info.whatsapp_business_manager_messaging_limit ?? info.messaging_limit_tier;
  return typeof tier === 'string' && tier ? tier : null;
}

/** Asks the Graph API about a phone-number id with an access token: the live check of a sender's token when it is saved, and its messaging limit tier. */
@Injectable()
export class GraphPhoneNumberClient {
  constructor(private readonly env: WhatsAppEnv) {}

  /** The number's details; GraphApiError when Meta refuses the token or the id, or cannot be reached. */
  async check(phoneNumberId: string, accessToken: string, timeoutMs = this.env.WHATSAPP_TIMEOUT_MS): Promise<PhoneNumberInfo> {
    const url = new URL(`${this.env.WHATSAPP_API_BASE_URL}/${encodeURIComponent(phoneNumberId)}`);
    url.searchParams.set('fields', 'id,display_phone_number,verified_name,whatsapp_business_manager_messaging_limit,messaging_limit_tier');
    let res: Response;
    try {
      res = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new GraphApiError(0, (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err as Error).message);
    }
    const body = (await res.json().catch(() => undefined)) as (PhoneNumberInfo & { error?: { message?: string } }) | undefined;
    if (!res.ok || !body) throw new GraphApiError(res.status, body?.error?.message ?? 'not a JSON answer');
    return body;
  }
}
