import { sha256Hex } from '@platform/crypto';
import type { OAuthClientRepository } from '@platform/database';
import { Clock } from '../clock.js';
import { OAuthClientService } from './oauth-client.service.js';
import { OAuthClientInputError } from './oauth-client-input.error.js';
import { OAuthError } from './oauth-error.js';

function service() {
  const rows = new Map<string, any>();
  const repo = {
    create: async (data: any) => {
      const row = { id: `id-${rows.size}`, createdAt: new Date(), revokedAt: null, ...data };
      rows.set(row.clientId, row);
      return row;
    },
    findByClientId: async (clientId: string) => rows.get(clientId) ?? null,
  } as unknown as OAuthClientRepository;
  return { svc: new OAuthClientService(repo, new Clock()), rows };
}

describe('OAuthClientService', () => {
  it('stores only the hash of a confidential secret and returns the secret once', async () => {
    const { svc, rows } = service();
    const { client, clientSecret } = await svc.register('bot', { name: ' CRM ', type: 'confidential', redirectUris: ['https://a.example/cb'] });
    expect(clientSecret).toMatch(/^bcs_/);
    expect(client.secretHash).toBe(sha256Hex(clientSecret!));
    expect(JSON.stringify([...rows.values()])).not.toContain(clientSecret);
    expect(client).toMatchObject({ name: 'CRM', grantTypes: ['authorization_code', 'refresh_token'], scopes: ['bot:read', 'bot:write', 'bot:admin'] });
  });

  it('refuses bad registrations', async () => {
    const { svc } = service();
    const base = { name: 'x', type: 'public' as const, redirectUris: ['https://a.example/cb'] };
    for (const input of [
      { ...base, name: ' ' },
      { ...base, redirectUris: [] },
      { ...base, redirectUris: ['http://a.example/cb'] },
      { ...base, grantTypes: ['refresh_token'] },
      { ...base, grantTypes: ['authorization_code', 'password'] },
      { ...base, scopes: ['bot:root'] },
    ]) {
      await expect(svc.register('bot', input)).rejects.toBeInstanceOf(OAuthClientInputError);
    }
  });

  it('authenticates confidential clients by secret and public ones without', async () => {
    const { svc } = service();
    const conf = await svc.register('bot', { name: 'c', type: 'confidential', redirectUris: ['https://a.example/cb'] });
    const pub = await svc.register('bot', { name: 'p', type: 'public', redirectUris: ['https://a.example/cb'] });
    const id = conf.client.clientId;
    await expect(svc.authenticate({ clientId: id, clientSecret: conf.clientSecret, method: 'client_secret_post' })).resolves.toMatchObject({ clientId: id });
    const wrongBasic = svc.authenticate({ clientId: id, clientSecret: 'bcs_nope', method: 'client_secret_basic' });
    await expect(wrongBasic).rejects.toMatchObject({ error: 'invalid_client', basicAttempted: true });
    await expect(svc.authenticate({ clientId: id, method: 'none' })).rejects.toBeInstanceOf(OAuthError);
    await expect(svc.authenticate({ clientId: pub.client.clientId, method: 'none' })).resolves.toMatchObject({ type: 'public' });
    await expect(svc.authenticate({ clientId: pub.client.clientId, clientSecret: 'x', method: 'client_secret_post' })).rejects.toBeInstanceOf(OAuthError);
    await expect(svc.authenticate({ clientId: 'bci_unknown', clientSecret: 'x', method: 'client_secret_post' })).rejects.toBeInstanceOf(OAuthError);
  });
});
