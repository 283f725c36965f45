import type { RegisterOAuthClientDto, RegisteredOAuthClientResponse } from '@platform/contracts';

type ClientType = RegisterOAuthClientDto['type'];

/** A registration's answer; a confidential client's has its secret. */
export type RegisteredClient<T extends ClientType> = RegisteredOAuthClientResponse & (T extends 'confidential' ? { client_secret: string } : unknown);

/** Registers an OAuth client of the bot through the admin API with an administrator's access token; its 201 answer. */
export async function registerOAuthClient<T extends ClientType>(gatewayUrl: string, botId: string, accessToken: string, body: RegisterOAuthClientDto & { type: T }): Promise<RegisteredClient<T>> {
  const res = await fetch(`${gatewayUrl}/v1/bots/${botId}/oauth-clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-auth-token': accessToken },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`client registration answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as RegisteredClient<T>;
}
