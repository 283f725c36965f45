import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { JobsOptions } from 'bullmq';
import type { CoreEnv, PushEnv } from '@platform/config';
import type { SendNotificationDto, TestNotificationDto } from '@platform/contracts';
import type { DeviceRepository, NotificationRepository } from '@platform/database';
import { RedisUnavailableError, type ProducerQueue } from '@platform/queue';
import type { LoadedPushConfig, PushConfigService } from '../service-accounts/push-config.service.js';
import type { FcmSender } from '../fcm/fcm-sender.js';
import type { FcmBody } from '../fcm/fcm-message.js';
import type { FcmVerdict } from '../fcm/fcm-response.js';
import type { Http2Response } from '../fcm/http2-pool.js';
import { CredentialsRejectedError } from '../service-accounts/credentials-rejected.error.js';
import { TransientPushError } from '../fcm/transient-push.error.js';
import { NotificationService } from './notification.service.js';

const NOTIFICATION_ID = 'c0000000-0000-4000-8000-000000000001';
const NO_CONFIG = 'This bot has no push notification configuration: save its Firebase service account with saveBotConfig first';
const env = { PUSH_JOB_ATTEMPTS: 5, PUSH_JOB_BACKOFF_MS: 1000 } as PushEnv;
const core = { REDIS_COMMAND_TIMEOUT_MS: 1000 } as CoreEnv;
const config = { botId: 'bot-1', projectId: 'proj-1', clientEmail: 'push@proj-1.iam.example' } as LoadedPushConfig;

interface Options {
  hasConfig?: boolean;
  load?: () => Promise<LoadedPushConfig | null>;
  addError?: unknown;
  stored?: Record<string, unknown> | null;
  sendOnce?: (body: FcmBody) => Promise<{ response: Http2Response; verdict: FcmVerdict }>;
}

function setup(o: Options = {}) {
  const created: Array<Record<string, unknown>> = [];
  const deleted: string[] = [];
  const added: Array<{ name: string; data: unknown; opts: JobsOptions }> = [];
  const dead: Array<[string, string, string]> = [];
  const sentBodies: FcmBody[] = [];
  const notifications = {
    create: async (data: Record<string, unknown>) => {
      created.push(data);
      return { id: NOTIFICATION_ID, ...data };
    },
    delete: async (id: string) => void deleted.push(id),
    findForBot: async (botId: string, id: string) => (o.stored && botId === 'bot-1' && id === NOTIFICATION_ID ? o.stored : null),
  } as unknown as NotificationRepository;
  const devices = {
    markDeadByToken: async (botId: string, token: string, reason: string) => void dead.push([botId, token, reason]),
  } as unknown as DeviceRepository;
  const configs = {
    hasConfig: async () => o.hasConfig ?? true,
    load: o.load ?? (async () => config),
  } as unknown as PushConfigService;
  const sender = {
    sendOnce: async (_config: LoadedPushConfig, body: FcmBody) => {
      sentBodies.push(body);
      if (!o.sendOnce) throw new Error('no FCM answer scripted');
      return o.sendOnce(body);
    },
  } as unknown as FcmSender;
  const queue = {
    add: async (name: string, data: unknown, opts: JobsOptions) => {
      if (o.addError) throw o.addError;
      added.push({ name, data, opts });
      return { id: opts.jobId };
    },
  } as unknown as ProducerQueue<'push-fanout'>;
  const service = new NotificationService(notifications, devices, configs, sender, env, core, queue);
  return { service, created, deleted, added, dead, sentBodies };
}

describe('NotificationService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  describe('send', () => {
    const dto = { userIds: ['u1', 'u2', 'u1'], title: 'Hello', body: 'World', data: { k: 'v' } } as SendNotificationDto;

    it('stores the notification and queues its plan job under plan-<id>, then answers its id', async () => {
      const { service, created, added } = setup();
      expect(await service.send('bot-1', dto)).toEqual({
        kind: 'done',
        value: { message: 'Notification queued for delivery', status: 'success', notificationId: NOTIFICATION_ID },
      });
      expect(created).toEqual([
        {
          botId: 'bot-1',
          targetAll: false,
          targetUserIds: ['u1', 'u2'],
          title: 'Hello',
          body: 'World',
          journeySlug: null,
          data: { k: 'v' },
          ttlSeconds: null,
          priority: 'high',
        },
      ]);
      expect(added).toEqual([{ name: 'plan', data: { notificationId: NOTIFICATION_ID }, opts: { jobId: `plan-${NOTIFICATION_ID}` } }]);
    });

    it('answers 400 without storing anything when the bot has no service account', async () => {
      const { service, created, added } = setup({ hasConfig: false });
      expect(await service.send('bot-1', dto)).toEqual({ kind: 'invalid', message: NO_CONFIG });
      expect(created).toEqual([]);
      expect(added).toEqual([]);
    });

    it('answers 400 naming the problem for a missing or double target', async () => {
      const { service, created } = setup();
      expect(await service.send('bot-1', { title: 'a', body: 'b' } as SendNotificationDto)).toEqual({
        kind: 'invalid',
        message: 'a target is required: userIds (array of user ids) or all: true',
      });
      expect(await service.send('bot-1', { all: true, userIds: ['u1'], title: 'a', body: 'b' } as SendNotificationDto)).toEqual({
        kind: 'invalid',
        message: 'give either userIds or all: true, not both',
      });
      expect(created).toEqual([]);
    });

    it('answers 503 and removes the stored notification when Redis does not take the job', async () => {
      const { service, deleted } = setup({ addError: new RedisUnavailableError('Redis did not answer while queueing the notification') });
      expect(await service.send('bot-1', dto)).toEqual({
        kind: 'unavailable',
        message: 'The notification queue is unavailable; nothing was queued. Retry later.',
      });
      expect(deleted).toEqual([NOTIFICATION_ID]);
    });
  });

  describe('status', () => {
    it("answers 404 for an id that is not a UUID or not one of the bot's notifications", async () => {
      const { service } = setup({ stored: null });
      expect(await service.status('bot-1', 'nope')).toEqual({ kind: 'not_found', message: 'No notification nope for this bot' });
      expect(await service.status('bot-1', NOTIFICATION_ID)).toEqual({ kind: 'not_found', message: `No notification ${NOTIFICATION_ID} for this bot` });
    });

    it('answers the counts, with pending as what is left of the total', async () => {
      // The status and counts are answered as stored.
      const counts = { status: 'processing', failureReason: null, total: 10, sent: 4, failed: 1, invalidTokens: 2, skipped: 1 };
      const stored = { id: NOTIFICATION_ID, botId: 'bot-1', ...counts, createdAt: new Date('2026-03-01T10:00:00Z'), completedAt: null };
      const { service } = setup({ stored });
      expect(await service.status('bot-1', NOTIFICATION_ID)).toEqual({
        kind: 'done',
        value: { notificationId: NOTIFICATION_ID, botId: 'bot-1', ...counts, pending: 2, createdAt: '2026-03-01T10:00:00.000Z', completedAt: null },
      });
      expect(await service.status('other-bot', NOTIFICATION_ID)).toMatchObject({ kind: 'not_found' });
    });
  });

  describe('test', () => {
    const dto = { token: ' device-token ', title: 'Ping' } as TestNotificationDto;

    it("hands FCM's answer back unchanged, parsed when it is JSON", async () => {
      const fcmBody = { name: 'projects/proj-1/messages/0:1' };
      const { service, sentBodies, dead } = setup({
        sendOnce: async () => ({ response: { status: 200, headers: {}, body: JSON.stringify(fcmBody) }, verdict: { kind: 'sent', name: fcmBody.name } }),
      });
      expect(await service.test('bot-1', dto)).toEqual({
        kind: 'done',
        value: { message: 'FCM accepted the test message', status: 'success', accepted: true, fcm: { httpStatus: 200, body: fcmBody } },
      });
      expect(sentBodies.map((b) => b.token)).toEqual(['device-token']);
      expect(dead).toEqual([]);
    });

    it('reports a refused message as not accepted, keeps a non-JSON body as text, and marks an invalid token dead', async () => {
      const { service, dead } = setup({
        sendOnce: async () => ({
          response: { status: 404, headers: {}, body: 'Not Found' },
          verdict: { kind: 'invalid', reason: 'UNREGISTERED', text: 'Requested entity was not found.' },
        }),
      });
      expect(await service.test('bot-1', dto)).toEqual({
        kind: 'done',
        value: { message: 'FCM refused the test message (404)', status: 'success', accepted: false, fcm: { httpStatus: 404, body: 'Not Found' } },
      });
      expect(dead).toEqual([['bot-1', 'device-token', 'UNREGISTERED']]);
    });

    it('answers 400 without sending when the bot has no service account', async () => {
      const { service, sentBodies } = setup({ load: async () => null });
      expect(await service.test('bot-1', dto)).toEqual({ kind: 'invalid', message: NO_CONFIG });
      expect(sentBodies).toEqual([]);
    });

    it("answers 400 with Google's answer when the service account is rejected, on loading or on sending", async () => {
      const rejected = new CredentialsRejectedError('Google refused the service account push@proj-1.iam.example: invalid_grant', 400, { error: 'invalid_grant' });
      const onLoad = setup({
        load: async () => {
          throw rejected;
        },
      });
      expect(await onLoad.service.test('bot-1', dto)).toEqual({ kind: 'invalid', message: rejected.message });
      const onSend = setup({
        sendOnce: async () => {
          throw rejected;
        },
      });
      expect(await onSend.service.test('bot-1', dto)).toEqual({
        kind: 'invalid',
        message: rejected.message,
        details: { tokenEndpoint: { httpStatus: 400, body: { error: 'invalid_grant' } } },
      });
    });

    it('answers 502 when FCM cannot be reached', async () => {
      const { service } = setup({
        sendOnce: async () => {
          throw new TransientPushError('connect ECONNREFUSED 127.0.0.1:443');
        },
      });
      expect(await service.test('bot-1', dto)).toEqual({ kind: 'provider_unreachable', message: 'FCM could not be reached: connect ECONNREFUSED 127.0.0.1:443' });
    });

    it('lets other errors through (the transport answers them as outages or 500)', async () => {
      const boom = new Error('database is down');
      const { service } = setup({
        load: async () => {
          throw boom;
        },
      });
      await expect(service.test('bot-1', dto)).rejects.toBe(boom);
    });
  });
});
