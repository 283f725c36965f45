import { randomBytes } from 'node:crypto';
import { FcmSandbox, GoogleOAuthSandbox } from '@platform/sandbox';

/** The demo device's FCM registration token: shaped like a real one (FCM tokens hold a ':'). */
export const DEMO_DEVICE_USER = 'demo_user_1';

/**
 * Push on `npm run up` without Firebase: Google's token endpoint and FCM HTTP v1 on loopback (the
 * sandboxes the push tests use), a service account of the sandbox saved for the demo bot, and a demo
 * device registered for `demo_user_1`. Each message FCM would deliver is printed, so a send from the
 * API or the console can be seen arriving.
 */
export class PushDemo {
  readonly oauth = new GoogleOAuthSandbox();
  readonly fcm: FcmSandbox;
  readonly deviceToken = `demo-device:${randomBytes(24).toString('base64url')}`;

  constructor(say: (line: string) => void) {
    this.fcm = new FcmSandbox({
      verifyAccessToken: (t) => this.oauth.verifyAccessToken(t),
      record: false,
      onMessage: (m) => {
        const n = (m.message.notification ?? {}) as { title?: string; body?: string };
        const to = m.token === this.deviceToken ? `the demo device (${DEMO_DEVICE_USER})` : `token ${m.token.slice(0, 12)}…`;
        say(`[fcm-sandbox] ${m.status === 200 ? 'delivered' : `refused (${m.status})`} to ${to}: "${n.title ?? ''}" – "${n.body ?? ''}" data ${JSON.stringify(m.message.data ?? {})}`);
      },
    });
  }

  /** Starts both servers; answers the settings that point the push service at them. */
  async listen(fcmPort: number, oauthPort: number): Promise<Record<string, string>> {
    await this.oauth.listen(oauthPort);
    await this.fcm.listen(fcmPort);
    return { FCM_API_BASE_URL: this.fcm.baseUrl, PUSH_ALLOW_INSECURE_TOKEN_URI: 'true' };
  }

  /**
   * Through the running gateway, as an administrator and an app would: saveBotConfig with a service
   * account of the sandbox, then the demo device. Throws with the gateway's answer when one fails.
   */
  async provision(base: string, botId: string, admin: { email: string; password: string }, apiKey: string): Promise<void> {
    const login = await call(`${base}/v1/auth/login`, {}, { email: admin.email, password: admin.password });
    const { access_token } = (await login.json()) as { access_token: string };
    await call(
      `${base}/api/data/vault/saveBotConfig?bot=${botId}`,
      { 'x-auth-token': access_token },
      { notification: { firebaseConfig: { serviceAccount: this.oauth.createServiceAccount('demo-push') } } },
    );
    await call(`${base}/v1/bots/${botId}/devices`, { authorization: `Bearer ${apiKey}` }, { userId: DEMO_DEVICE_USER, token: this.deviceToken, platform: 'android' });
  }

  async close(): Promise<void> {
    await this.fcm.close();
    await this.oauth.close();
  }
}

async function call(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the push demo's ${new URL(url).pathname} answered ${res.status}: ${await res.text()}`);
  return res;
}
