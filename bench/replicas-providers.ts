// The outside services of `npm run bench:replicas`, forked so they do not share the platform's CPU:
// the WhatsApp Cloud API sandbox and Google's token endpoint + FCM HTTP v1 sandbox, both recording every
// accepted message, so the parent can ask how many each recipient or device got (lost / duplicated) and
// how many each sender number got in its busiest wall-clock second (pacing).
//
// Parent → child: {type:'account', clientEmail, projectId, publicKey} | {type:'stats'} | {type:'stop'}
// Child → parent: {type:'ready', whatsappUrl, fcmUrl, tokenUri} | {type:'stats', ...ProviderStats}
import 'reflect-metadata';
import { FcmSandbox, GoogleOAuthSandbox, WhatsAppCloudSandbox } from '@platform/sandbox';

export interface SenderSeconds {
  phoneNumberId: string;
  messages: number;
  /** Messages of the busiest wall-clock second, as received here. */
  busiestSecond: number;
  /** Wall-clock seconds from the first to the last message of this number. */
  spanSeconds: number;
}

export interface ProviderStats {
  whatsapp: {
    accepted: number;
    /** Recipients that received more than one message, and the extra messages they got. */
    duplicatedRecipients: number;
    extraMessages: number;
    /** Accepted messages per recipient (digits) — only asked for with `withRecipients`. */
    recipients?: Record<string, number>;
    senders: SenderSeconds[];
  };
  fcm: { received: number; ok: number; duplicatedTokens: number; extraMessages: number };
}

export type ProvidersRequest = { type: 'account'; clientEmail: string; projectId: string; publicKey: string } | { type: 'stats'; withRecipients?: boolean } | { type: 'stop' };

function whatsappStats(cloud: WhatsAppCloudSandbox, withRecipients: boolean): ProviderStats['whatsapp'] {
  const perRecipient = new Map<string, number>();
  const perSender = new Map<string, Map<number, number>>();
  for (const a of cloud.arrivals) {
    perRecipient.set(a.to, (perRecipient.get(a.to) ?? 0) + 1);
    const seconds = perSender.get(a.phoneNumberId) ?? new Map<number, number>();
    const s = Math.floor(a.at / 1000);
    seconds.set(s, (seconds.get(s) ?? 0) + 1);
    perSender.set(a.phoneNumberId, seconds);
  }
  let duplicatedRecipients = 0;
  let extraMessages = 0;
  for (const n of perRecipient.values()) {
    if (n > 1) {
      duplicatedRecipients += 1;
      extraMessages += n - 1;
    }
  }
  const senders = [...perSender].map(([phoneNumberId, seconds]) => {
    const keys = [...seconds.keys()];
    return {
      phoneNumberId,
      messages: [...seconds.values()].reduce((a, b) => a + b, 0),
      busiestSecond: Math.max(...seconds.values()),
      spanSeconds: Math.max(...keys) - Math.min(...keys) + 1,
    };
  });
  return {
    accepted: cloud.arrivals.length,
    duplicatedRecipients,
    extraMessages,
    ...(withRecipients ? { recipients: Object.fromEntries(perRecipient) } : {}),
    senders,
  };
}

function fcmStats(fcm: FcmSandbox): ProviderStats['fcm'] {
  const perToken = new Map<string, number>();
  for (const m of fcm.messages) if (m.status === 200) perToken.set(m.token, (perToken.get(m.token) ?? 0) + 1);
  let duplicatedTokens = 0;
  let extraMessages = 0;
  for (const n of perToken.values()) {
    if (n > 1) {
      duplicatedTokens += 1;
      extraMessages += n - 1;
    }
  }
  return { received: fcm.total, ok: fcm.counts.get(200) ?? 0, duplicatedTokens, extraMessages };
}

async function main(): Promise<void> {
  const cloud = new WhatsAppCloudSandbox();
  await cloud.listen(0, '127.0.0.1');
  const oauth = new GoogleOAuthSandbox();
  await oauth.listen();
  const fcm = new FcmSandbox({ verifyAccessToken: (t) => oauth.verifyAccessToken(t) });
  await fcm.listen();
  process.on('message', (msg: ProvidersRequest) => {
    if (msg.type === 'account') oauth.registerAccount(msg.clientEmail, msg.projectId, msg.publicKey);
    if (msg.type === 'stats') {
      const stats: ProviderStats = { whatsapp: whatsappStats(cloud, msg.withRecipients ?? false), fcm: fcmStats(fcm) };
      process.send!({ type: 'stats', ...stats });
    }
    if (msg.type === 'stop') void Promise.all([cloud.close(), fcm.close(), oauth.close()]).then(() => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0)); // the parent went away
  process.send!({ type: 'ready', whatsappUrl: `${cloud.baseUrl}/v21.0`, fcmUrl: fcm.baseUrl, tokenUri: oauth.tokenUri });
}

if (process.send) void main();
