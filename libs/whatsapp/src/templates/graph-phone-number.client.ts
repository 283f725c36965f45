import { Injectable } from '@nestjs/common';
import { WhatsAppEnv } from '@platform/config';
import { GraphApiError } from './graph-api.error.js';

export interface PhoneNumberInfo {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
}

/** Asks the Graph API about a phone-number id with an access token: the live check of a sender's token when it is saved. */
@Injectable()
export class GraphPhoneNumberClient {
  constructor(private readonly env: WhatsAppEnv) {}

  /** The number's details; GraphApiError when Meta refuses the token or the id, or cannot be reached. */
  async check(phoneNumberId: string, accessToken: string): Promise<PhoneNumberInfo> {
    const url = new URL(`${this.env.WHATSAPP_API_BASE_URL}/${encodeURIComponent(phoneNumberId)}`);
    url.searchParams.set('fields', 'id,display_phone_number,verified_name');
    let res: Response;
    try {
      res = await fetch(url, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(this.env.WHATSAPP_TIMEOUT_MS) });
    } catch (err) {
      throw new GraphApiError(0, (err as Error).name === 'TimeoutError' ? `no answer within ${this.env.WHATSAPP_TIMEOUT_MS} ms` : (err as Error).message);
    }
    const body = (await res.json().catch(() => undefined)) as (PhoneNumberInfo & { error?: { message?: string } }) | undefined;
    if (!res.ok || !body) throw new GraphApiError(res.status, body?.error?.message ?? 'not a JSON answer');
    return body;
  }
}
