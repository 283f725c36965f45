import 'reflect-metadata';
import { jest } from '@jest/globals';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { CallbackEnv } from '@platform/config';
import { SecretBox } from '@platform/crypto';
import type { CallbackEndpointRecord, CallbackKindName, CallbackSecretRecord, CallbackSettingsRepository } from '@platform/database';
import type { CallbackUrlChecker } from './callback-url.checker.js';
import { CallbackSettingsService } from './callback-settings.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const T0 = Date.parse('2026-12-16T10:00:00Z');
const HOUR = 3600_000;
const box = new SecretBox(`k:${Buffer.alloc(32, 5).toString('base64')}`);

/** CallbackSettingsRepository in memory for one bot (any other bot does not exist); the URL checker refuses "http:" URLs. */
function setup() {
  const endpoints: Partial<Record<CallbackKindName, CallbackEndpointRecord>> = {};
  const state: { secret: CallbackSecretRecord | null } = { secret: null };
  const repo = {
    find: async (botId: string) => (botId === BOT ? { endpoints: { ...endpoints }, secret: state.secret && { ...state.secret } } : null),
    setUrl: async (_b: string, kind: CallbackKindName, url: string) => (endpoints[kind] = { kind, url, failingSince: null, disabledAt: null, disabledReason: null }),
    clearUrl: async (_b: string, kind: CallbackKindName) => delete endpoints[kind],
    setSecret: async (_b: string, secretEncrypted: string) => (state.secret = { secretEncrypted, previousSecretEncrypted: null, previousExpiresAt: null }),
    rotateSecret: async (_b: string, secretEncrypted: string, previousExpiresAt: Date) => {
      if (!state.secret) return false;
      state.secret = { secretEncrypted, previousSecretEncrypted: state.secret.secretEncrypted, previousExpiresAt };
      return true;
    },
    endRotation: async () => state.secret && Object.assign(state.secret, { previousSecretEncrypted: null, previousExpiresAt: null }),
    clearAll: async () => {
      delete endpoints.webhook;
      delete endpoints.postback;
      state.secret = null;
    },
  } as unknown as CallbackSettingsRepository;
  const checker = { problem: jest.fn(async (url: string) => (url.startsWith('https://') ? null : 'must use https')) };
  const service = new CallbackSettingsService(repo, checker as unknown as CallbackUrlChecker, box, { CALLBACK_SECRET_ROTATION_HOURS: 24 } as CallbackEnv);
  return { service, endpoints, state, checker };
}

describe('CallbackSettingsService', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('gives a bot its signing secret with its first URL, once, stored encrypted', async () => {
    const { service, state } = setup();
    const first = await service.setUrl(BOT, 'webhook', 'https://hooks.example.com/a');
    expect(first).toEqual({ url: 'https://hooks.example.com/a', secretSet: true, secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) });
    expect(state.secret!.secretEncrypted).not.toContain(first.secret!.slice(6));
    expect(box.decrypt(state.secret!.secretEncrypted)).toBe(first.secret);
    // Setting another URL does not show or change the secret.
    await expect(service.setUrl(BOT, 'postback', 'https://hooks.example.com/p')).resolves.toEqual({ url: 'https://hooks.example.com/p', secretSet: true });
    expect(box.decrypt(state.secret!.secretEncrypted)).toBe(first.secret);
    await expect(service.view(BOT)).resolves.toEqual({
      webhook: { url: 'https://hooks.example.com/a', failingSince: null, disabledAt: null, disabledReason: null },
      postback: { url: 'https://hooks.example.com/p', failingSince: null, disabledAt: null, disabledReason: null },
      secretSet: true,
      previousSecretValidUntil: null,
    });
  });

  it('refuses a URL the checker finds a problem with (400 naming it), changing nothing', async () => {
    const { service, state, endpoints } = setup();
    const err = await service.setUrl(BOT, 'webhook', 'http://10.0.0.1/').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BadRequestException);
    expect((err as Error).message).toBe('url must use https');
    expect(state.secret).toBeNull();
    expect(endpoints).toEqual({});
  });

  it('answers 404 for a bot that does not exist, for every method', async () => {
    const { service } = setup();
    const other = '1c7f4d63-a5b6-4e1f-8f88-8e9f6c1c3d22';
    for (const call of [
      () => service.view(other),
      () => service.setUrl(other, 'webhook', 'https://hooks.example.com/a'),
      () => service.clearUrl(other, 'webhook'),
      () => service.rotate(other),
      () => service.endRotation(other),
    ]) {
      await expect(call()).rejects.toThrow(new NotFoundException(`No bot ${other}`));
    }
  });

  it('rotates: the new secret is shown once, the previous one signs for the rotation hours, then the view drops it', async () => {
    const { service, state } = setup();
    const { secret: first } = await service.setUrl(BOT, 'webhook', 'https://hooks.example.com/a');
    const rotated = await service.rotate(BOT);
    expect(rotated).toEqual({ secret: expect.stringMatching(/^whsec_/), previousSecretValidUntil: new Date(T0 + 24 * HOUR).toISOString() });
    expect(rotated.secret).not.toBe(first);
    expect(box.decrypt(state.secret!.secretEncrypted)).toBe(rotated.secret);
    expect(box.decrypt(state.secret!.previousSecretEncrypted!)).toBe(first);
    await expect(service.view(BOT)).resolves.toMatchObject({ previousSecretValidUntil: new Date(T0 + 24 * HOUR).toISOString() });
    jest.setSystemTime(T0 + 24 * HOUR);
    await expect(service.view(BOT)).resolves.toMatchObject({ previousSecretValidUntil: null });
  });

  it('rotates with a given validity, through setUrl too, and ends a rotation on request', async () => {
    const { service, state } = setup();
    await service.setUrl(BOT, 'webhook', 'https://hooks.example.com/a');
    await expect(service.rotate(BOT, 2)).resolves.toMatchObject({ previousSecretValidUntil: new Date(T0 + 2 * HOUR).toISOString() });
    const viaUrl = await service.setUrl(BOT, 'webhook', 'https://hooks.example.com/b', true);
    expect(viaUrl).toMatchObject({ url: 'https://hooks.example.com/b', secret: expect.stringMatching(/^whsec_/), previousSecretValidUntil: new Date(T0 + 24 * HOUR).toISOString() });
    await service.endRotation(BOT);
    expect(state.secret).toMatchObject({ previousSecretEncrypted: null, previousExpiresAt: null });
    await expect(service.view(BOT)).resolves.toMatchObject({ previousSecretValidUntil: null });
  });

  it('issues a first secret, without a previous one, when rotating a bot that has none', async () => {
    const { service, state } = setup();
    const issued = await service.rotate(BOT);
    expect(issued).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    expect(state.secret).toMatchObject({ previousSecretEncrypted: null });
    expect(box.decrypt(state.secret!.secretEncrypted)).toBe(issued.secret);
  });

  it('clears one endpoint and keeps the secret while the other remains; the last one takes the secret with it', async () => {
    const { service, state, endpoints } = setup();
    await service.setUrl(BOT, 'webhook', 'https://hooks.example.com/a');
    await service.setUrl(BOT, 'postback', 'https://hooks.example.com/p');
    await service.clearUrl(BOT, 'webhook');
    expect(Object.keys(endpoints)).toEqual(['postback']);
    expect(state.secret).not.toBeNull();
    await service.clearUrl(BOT, 'postback');
    expect(endpoints).toEqual({});
    expect(state.secret).toBeNull();
    await expect(service.view(BOT)).resolves.toEqual({ webhook: null, postback: null, secretSet: false, previousSecretValidUntil: null });
    // The next URL comes with a new secret again.
    await expect(service.setUrl(BOT, 'postback', 'https://hooks.example.com/p')).resolves.toHaveProperty('secret');
  });

  it("shows an endpoint's health", async () => {
    const { service, endpoints } = setup();
    await service.setUrl(BOT, 'webhook', 'https://hooks.example.com/a');
    Object.assign(endpoints.webhook!, { failingSince: new Date(T0 - HOUR), disabledAt: new Date(T0), disabledReason: 'failing for 72 hours' });
    await expect(service.view(BOT)).resolves.toMatchObject({
      webhook: { url: 'https://hooks.example.com/a', failingSince: new Date(T0 - HOUR).toISOString(), disabledAt: new Date(T0).toISOString(), disabledReason: 'failing for 72 hours' },
    });
  });
});
