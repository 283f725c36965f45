import { createHmac } from 'node:crypto';

/** The app secret the tests give the gateway (WHATSAPP_APP_SECRET), which Meta signs its webhooks with. */
export const TEST_APP_SECRET = 'app-secret-for-tests';

/** The verify token the tests give the gateway (WHATSAPP_WEBHOOK_VERIFY_TOKEN). */
export const TEST_VERIFY_TOKEN = 'verify-token-for-tests';

/** Env for apps that take Meta's signed webhooks and post to bots and receivers on loopback over plain HTTP. */
export const WEBHOOK_TEST_ENV: Readonly<Record<string, string>> = {
  WHATSAPP_WEBHOOK_VERIFY_TOKEN: TEST_VERIFY_TOKEN,
  WHATSAPP_APP_SECRET: TEST_APP_SECRET,
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
};

/** Which sender's number a notification is for (the metadata Meta puts in each change). */
export interface NotificationNumber {
  phoneNumberId: string;
  displayPhoneNumber?: string;
}

/** A notification as Meta posts it: one WABA entry, one `messages` change carrying `value` (statuses, messages, contacts). */
export function whatsappNotification(value: Record<string, unknown>, { phoneNumberId, displayPhoneNumber = '15550001111' }: NotificationNumber = { phoneNumberId: '1065' }) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', metadata: { display_phone_number: displayPhoneNumber, phone_number_id: phoneNumberId }, ...value },
          },
        ],
      },
    ],
  };
}

/** The X-Hub-Signature-256 header value of a webhook body, as Meta signs it. */
export function signWebhook(body: string, secret = TEST_APP_SECRET): string {
  return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
}
