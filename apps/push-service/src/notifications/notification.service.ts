import { Injectable, Logger } from '@nestjs/common';
import { CoreEnv, PushEnv } from '@platform/config';
import {
  NotificationStatusResponse,
  PushOutcome,
  SendNotificationDto,
  SendNotificationResponse,
  TestNotificationDto,
  TestNotificationResponse,
  fcmPayloadProblem,
  isUuid,
  notificationTargetProblem,
} from '@platform/contracts';
import { DeviceRepository, NotificationRepository } from '@platform/database';
import { PushFanoutQueue, withTimeout } from '@platform/queue';
import { PushConfigService } from '../service-accounts/push-config.service.js';
import { fcmMessageTemplate } from '../fcm/fcm-message.js';
import { FcmSender } from '../fcm/fcm-sender.js';
import { CredentialsRejectedError } from '../service-accounts/credentials-rejected.error.js';
import { TransientPushError } from '../fcm/transient-push.error.js';

const NO_CONFIG = 'This bot has no push notification configuration: save its Firebase service account with saveBotConfig first';

/** Accepts notifications (durably queued before the answer), reports their counts, sends test messages. */
@Injectable()
export class NotificationService {
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly notifications: NotificationRepository,
    private readonly devices: DeviceRepository,
    private readonly configs: PushConfigService,
    private readonly sender: FcmSender,
    private readonly env: PushEnv,
    private readonly core: CoreEnv,
    private readonly queue: PushFanoutQueue,
  ) {}

  async send(botId: string, dto: SendNotificationDto): Promise<PushOutcome<SendNotificationResponse>> {
    const problem = notificationTargetProblem(dto) ?? fcmPayloadProblem({ botId, ...dto });
    if (problem) return { kind: 'invalid', message: problem };
    if (!(await this.configs.hasConfig(botId))) return { kind: 'invalid', message: NO_CONFIG };

    const n = await this.notifications.create({
      botId,
      targetAll: dto.all === true,
      targetUserIds: dto.userIds ? [...new Set(dto.userIds)] : [],
      title: dto.title,
      body: dto.body,
      journeySlug: dto.journeySlug ?? null,
      data: dto.data ?? {},
      ttlSeconds: dto.ttlSeconds ?? null,
      priority: dto.priority ?? 'high',
    });
    try {
      await withTimeout(this.queue.add('plan', { notificationId: n.id }, { jobId: `plan-${n.id}` }), this.core.REDIS_COMMAND_TIMEOUT_MS, 'queueing the notification');
    } catch (err) {
      // Not queued, so not kept: the caller gets 503 and can retry.
      await this.notifications.delete(n.id).catch(() => undefined);
      this.logger.error(`notification of bot ${botId} not queued: ${(err as Error).message}`);
      return { kind: 'unavailable', message: 'The notification queue is unavailable; nothing was queued. Retry later.' };
    }
    return { kind: 'done', value: { message: 'Notification queued for delivery', status: 'success', notificationId: n.id } };
  }

  async status(botId: string, id: string): Promise<PushOutcome<NotificationStatusResponse>> {
    const n = isUuid(id) ? await this.notifications.findForBot(botId, id) : null;
    if (!n) return { kind: 'not_found', message: `No notification ${id} for this bot` };
    return {
      kind: 'done',
      value: {
        notificationId: n.id,
        botId: n.botId,
        status: n.status,
        failureReason: n.failureReason,
        total: n.total,
        sent: n.sent,
        failed: n.failed,
        invalidTokens: n.invalidTokens,
        skipped: n.skipped,
        pending: Math.max(0, n.total - n.sent - n.failed - n.invalidTokens - n.skipped),
        createdAt: n.createdAt.toISOString(),
        completedAt: n.completedAt?.toISOString() ?? null,
      },
    };
  }

  /** One message to one token, now, without retries; FCM's answer is handed back unchanged. */
  async test(botId: string, dto: TestNotificationDto): Promise<PushOutcome<TestNotificationResponse>> {
    const token = dto.token.trim();
    const content = {
      botId,
      title: dto.title ?? 'Test notification',
      body: dto.body ?? 'Sent by the bot platform to check push delivery',
      journeySlug: dto.journeySlug,
      data: dto.data,
    };
    const problem = fcmPayloadProblem(content);
    if (problem) return { kind: 'invalid', message: problem };
    let config;
    try {
      config = await this.configs.load(botId);
    } catch (err) {
      if (err instanceof CredentialsRejectedError) return { kind: 'invalid', message: err.message };
      throw err;
    }
    if (!config) return { kind: 'invalid', message: NO_CONFIG };
    try {
      const { response, verdict } = await this.sender.sendOnce(config, fcmMessageTemplate({ ...content, priority: 'high' })(token));
      if (verdict.kind === 'invalid') await this.devices.markDeadByToken(botId, token, verdict.reason);
      let body: unknown = response.body;
      try {
        body = JSON.parse(response.body);
      } catch {
        /* not JSON: keep the text */
      }
      const accepted = verdict.kind === 'sent';
      return {
        kind: 'done',
        value: {
          message: accepted ? 'FCM accepted the test message' : `FCM refused the test message (${response.status})`,
          status: 'success',
          accepted,
          fcm: { httpStatus: response.status, body },
        },
      };
    } catch (err) {
      if (err instanceof CredentialsRejectedError) {
        return { kind: 'invalid', message: err.message, details: { tokenEndpoint: { httpStatus: err.httpStatus, body: err.body } } };
      }
      if (err instanceof TransientPushError) return { kind: 'provider_unreachable', message: `FCM could not be reached: ${err.message}` };
      throw err;
    }
  }
}
