// Helpers of the test/push-*.e2e-spec.ts files: the loopback Google and FCM servers, the push env,
// a bot's API calls, saving a service account, waiting for a notification to settle, SQL.
import pg from 'pg';
import { FcmSandbox, FcmSandboxOptions, GoogleOAuthSandbox } from '@platform/sandbox';
import { createTestEnv } from '@platform/testing';

/** Google's token endpoint and FCM HTTP v1 on loopback; FCM accepts only tokens the endpoint minted. */
export class PushSandboxes {
  readonly oauth = new GoogleOAuthSandbox();
  readonly fcm: FcmSandbox;

  /** `fcm`: more options of the FCM sandbox (e.g. a quota). */
  constructor(fcm: Omit<FcmSandboxOptions, 'verifyAccessToken'> = {}) {
    this.fcm = new FcmSandbox({ verifyAccessToken: (t) => this.oauth.verifyAccessToken(t), ...fcm });
  }

  async listen(): Promise<void> {
    await this.oauth.listen();
    await this.fcm.listen();
  }

  /** The settings that point a push service at these sandboxes. */
  settings(): Record<string, string> {
    return { FCM_API_BASE_URL: this.fcm.baseUrl, PUSH_ALLOW_INSECURE_TOKEN_URI: 'true', PUSH_SERVICE_HEALTH_PORT: '0' };
  }

  /** A test env (own database and Redis db) whose push service talks to these sandboxes. */
  env(overrides: Record<string, string> = {}): Promise<Record<string, string>> {
    return createTestEnv({ ...this.settings(), ...overrides });
  }

  async close(): Promise<void> {
    await this.fcm.close();
    await this.oauth.close();
  }
}

export type BotApi = (method: string, path: string, body?: unknown, extraHeaders?: Record<string, string>) => Promise<Response>;

/** Calls under /v1/bots/<botId> with the bot's API key (JSON body when given). */
export function botApi(baseUrl: string, botId: string, apiKey: string): BotApi {
  return (method, path, body, extraHeaders = {}) =>
    fetch(`${baseUrl}/v1/bots/${botId}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extraHeaders },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/** saveBotConfig as an administrator does it. */
export function saveServiceAccount(baseUrl: string, botId: string, adminToken: string, serviceAccount: unknown): Promise<Response> {
  return fetch(`${baseUrl}/api/data/vault/saveBotConfig?bot=${botId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': adminToken },
    body: JSON.stringify({ notification: { firebaseConfig: { serviceAccount } } }),
  });
}

/** GET …/notifications/<id> until it is completed or failed with nothing pending; its last status. */
export async function waitForNotification(api: BotApi, id: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await (await api('GET', `/notifications/${id}`)).json();
    if ((s.status === 'completed' || s.status === 'failed') && s.pending === 0) return s;
    if (Date.now() > deadline) throw new Error(`notification ${id} stuck: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Rows of one SQL statement, on a connection of its own. */
export async function sqlRows<T extends pg.QueryResultRow>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}
