import 'reflect-metadata';
import { generateKeyPairSync } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { PushEnv } from '@platform/config';
import { SecretBox } from '@platform/crypto';
import type { PushConfigRepository } from '@platform/database';
import { CredentialsRejectedError } from './credentials-rejected.error.js';
import { PushConfigService } from './push-config.service.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const account = {
  type: 'service_account',
  project_id: 'demo-project',
  private_key_id: 'key-1',
  private_key: rsa,
  client_email: 'sa@demo-project.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
};
const box = new SecretBox(`k1:${Buffer.alloc(32, 7).toString('base64')}`);

interface Row {
  botId: string;
  projectId: string;
  credentialsEncrypted: string;
  keyId: string;
  version: number;
  fcmQuotaPerMinute: number | null;
  updatedAt: Date;
}

/** PushConfigRepository in memory: a save of an existing bot's config grows its version, as the upsert does. */
class FakePushConfigs {
  readonly rows = new Map<string, Row>();
  reads = 0;

  async save(botId: string, data: { projectId: string; credentialsEncrypted: string; keyId: string }) {
    const version = (this.rows.get(botId)?.version ?? 0) + 1;
    const row = { botId, ...data, version, fcmQuotaPerMinute: this.rows.get(botId)?.fcmQuotaPerMinute ?? null, updatedAt: new Date('2026-02-03T04:05:06Z') };
    this.rows.set(botId, row);
    return row;
  }

  async deleteByBot(botId: string) {
    return this.rows.delete(botId);
  }

  async setFcmQuota(botId: string, perMinute: number | null) {
    const row = this.rows.get(botId);
    if (row) row.fcmQuotaPerMinute = perMinute;
    return row !== undefined;
  }

  async findByBot(botId: string) {
    this.reads++;
    return this.rows.get(botId) ?? null;
  }
}

function setup(env: Partial<PushEnv> = {}) {
  const repo = new FakePushConfigs();
  const service = new PushConfigService(repo as unknown as PushConfigRepository, box, { PUSH_ALLOW_INSECURE_TOKEN_URI: false, PUSH_FCM_QUOTA_PER_MINUTE: 600_000, ...env } as PushEnv);
  return { service, repo };
}

const sealed = (doc: unknown) => ({ sealedServiceAccount: box.encrypt(JSON.stringify(doc)) });

describe('PushConfigService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  describe('save', () => {
    it('stores the sealed document as the gateway sealed it, with its key id and the project', async () => {
      const { service, repo } = setup();
      const msg = sealed(account);
      expect(await service.save('bot-1', msg)).toEqual({ kind: 'done', value: { message: expect.stringContaining('saved'), status: 'success' } });
      expect(repo.rows.get('bot-1')).toMatchObject({ projectId: 'demo-project', credentialsEncrypted: msg.sealedServiceAccount, keyId: 'k1', version: 1 });
    });

    it('refuses a document that is not a usable service account, naming every problem, and stores nothing', async () => {
      const { service, repo } = setup();
      const outcome = await service.save('bot-1', sealed({ ...account, type: 'authorized_user', token_uri: 'http://oauth2.googleapis.com/token' }));
      expect(outcome).toEqual({ kind: 'invalid', message: expect.stringMatching(/type must be "service_account".*; .*token_uri must be an https URL/) });
      expect(repo.rows.size).toBe(0);
    });

    it('answers a failure, not a refusal, when the sealed document cannot be opened (another keyring)', async () => {
      const { service, repo } = setup();
      const foreign = new SecretBox(`k2:${Buffer.alloc(32, 9).toString('base64')}`).encrypt(JSON.stringify(account));
      expect(await service.save('bot-1', { sealedServiceAccount: foreign })).toEqual({ kind: 'failed', message: expect.stringContaining('ENCRYPTION_KEYS') });
      expect(repo.rows.size).toBe(0);
    });
  });

  describe('view and remove', () => {
    it('shows the project, account and key id, never the private key', async () => {
      const { service } = setup();
      await service.save('bot-1', sealed(account));
      const outcome = await service.view('bot-1');
      expect(outcome).toEqual({
        kind: 'done',
        value: expect.objectContaining({
          notification: { firebaseConfig: { projectId: 'demo-project', clientEmail: account.client_email, privateKeyId: 'key-1', savedAt: '2026-02-03T04:05:06.000Z' } },
        }),
      });
      expect(JSON.stringify(outcome)).not.toContain('PRIVATE KEY');
    });

    it('answers not_found for a bot without a config, to view or remove', async () => {
      const { service } = setup();
      expect(await service.view('bot-1')).toMatchObject({ kind: 'not_found' });
      expect(await service.remove('bot-1')).toMatchObject({ kind: 'not_found' });
    });

    it('removes the config: the bot has none afterwards', async () => {
      const { service } = setup();
      await service.save('bot-1', sealed(account));
      expect(await service.remove('bot-1')).toMatchObject({ kind: 'done' });
      expect(await service.hasConfig('bot-1')).toBe(false);
      expect(await service.load('bot-1')).toBeNull();
    });
  });

  describe('FCM quota', () => {
    it('reads the platform default until the bot has its own, sets it, and goes back to the default with null; the next load carries it', async () => {
      const { service, repo } = setup({ PUSH_FCM_QUOTA_PER_MINUTE: 600_000 });
      await service.save('bot-1', sealed(account));
      expect(await service.quota('bot-1')).toEqual({ kind: 'done', value: { botId: 'bot-1', projectId: 'demo-project', perMinute: 600_000, isDefault: true } });
      expect(await service.setQuota('bot-1', 12_000)).toEqual({
        kind: 'done',
        value: { message: 'FCM quota set', status: 'success', botId: 'bot-1', projectId: 'demo-project', perMinute: 12_000, isDefault: false },
      });
      expect(repo.rows.get('bot-1')!.fcmQuotaPerMinute).toBe(12_000);
      expect((await service.load('bot-1'))!.quotaPerMinute).toBe(12_000);
      expect(await service.setQuota('bot-1', null)).toMatchObject({ kind: 'done', value: { perMinute: 600_000, isDefault: true } });
      expect((await service.load('bot-1'))!.quotaPerMinute).toBe(600_000);
    });

    it('refuses a quota out of bounds or not an integer, naming the field, and changes nothing', async () => {
      const { service, repo } = setup();
      await service.save('bot-1', sealed(account));
      for (const bad of [59, 0, -60, 1.5, 1_000_000_001, Number.NaN]) {
        expect(await service.setQuota('bot-1', bad)).toEqual({ kind: 'invalid', message: 'perMinute must be an integer from 60 to 1000000000, or null' });
      }
      expect(repo.rows.get('bot-1')!.fcmQuotaPerMinute).toBeNull();
    });

    it('answers not_found for a bot without a service account: the quota belongs to its Firebase project', async () => {
      const { service } = setup();
      expect(await service.quota('bot-1')).toMatchObject({ kind: 'not_found', message: expect.stringContaining('save a service account first') });
      expect(await service.setQuota('bot-1', 6000)).toMatchObject({ kind: 'not_found' });
    });
  });

  describe('load', () => {
    it('opens the stored account and parses its key once per version', async () => {
      const { service } = setup();
      await service.save('bot-1', sealed(account));
      const first = await service.load('bot-1');
      expect(first).toMatchObject({ botId: 'bot-1', version: 1, projectId: 'demo-project', clientEmail: account.client_email, privateKeyId: 'key-1', tokenUri: account.token_uri });
      expect(first!.privateKey.asymmetricKeyType).toBe('rsa');
      expect(await service.load('bot-1')).toBe(first);
      await service.save('bot-1', sealed({ ...account, private_key_id: 'key-2' }));
      const second = await service.load('bot-1');
      expect(second).not.toBe(first);
      expect(second).toMatchObject({ version: 2, privateKeyId: 'key-2' });
    });

    it("carries the bot's FCM quota, else PUSH_FCM_QUOTA_PER_MINUTE, read again on every load of a cached config", async () => {
      const { service, repo } = setup({ PUSH_FCM_QUOTA_PER_MINUTE: 120_000 });
      await service.save('bot-1', sealed(account));
      const first = await service.load('bot-1');
      expect(first!.quotaPerMinute).toBe(120_000);
      repo.rows.get('bot-1')!.fcmQuotaPerMinute = 6000;
      const again = await service.load('bot-1');
      expect(again).toBe(first);
      expect(again!.quotaPerMinute).toBe(6000);
    });

    it('refuses a stored account the settings no longer allow (a loopback token_uri once insecure URIs are off)', async () => {
      const loopback = { ...account, token_uri: 'http://127.0.0.1:9/token' };
      const permissive = setup({ PUSH_ALLOW_INSECURE_TOKEN_URI: true });
      expect(await permissive.service.save('bot-1', sealed(loopback))).toMatchObject({ kind: 'done' });
      const strict = new PushConfigService(permissive.repo as unknown as PushConfigRepository, box, { PUSH_ALLOW_INSECURE_TOKEN_URI: false } as PushEnv);
      const refusal = strict.load('bot-1');
      await expect(refusal).rejects.toBeInstanceOf(CredentialsRejectedError);
      await expect(refusal).rejects.toThrow('PUSH_ALLOW_INSECURE_TOKEN_URI');
    });
  });
});
