import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SdkEnv } from '@platform/config';
import { AppEventDto, StartSessionDto, chatUserId, isChatToken, isUuid } from '@platform/contracts';
import { safeEqual } from '@platform/crypto';
import { CallbackSettingsRepository, ConversationRepository, SdkSessionRepository } from '@platform/database';
import type { SdkSession } from '@platform/database';
import { BotInputsService } from '../bots/bot-inputs.service.js';
import { WebhookDispatcher } from '../callbacks/webhook-dispatcher.service.js';

export type SessionCheck = SdkSession | 'unauthorized' | 'gone';

/** SDK sessions: start (and tell the bot), check a chat token against a session, forward app events. */
@Injectable()
export class SdkSessionService {
  constructor(
    private readonly sessions: SdkSessionRepository,
    private readonly callbacks: CallbackSettingsRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly env: SdkEnv,
    private readonly conversations: ConversationRepository,
    private readonly botInputs: BotInputsService,
  ) {}

  /**
   * Creates the session; when the bot is hosted, answers only once its start input is stored and its
   * turn queued, and when the bot has a webhook (for a hosted bot: a mirror), once the session.started
   * call is queued.
   */
  async start(botId: string, dto: StartSessionDto): Promise<SdkSession> {
    const answers = isUuid(botId) ? await this.botInputs.whoAnswers(botId) : null;
    if (!answers) throw new NotFoundException(`No bot ${botId}`);
    const { hosted, webhook } = answers;
    const now = new Date();
    const session = await this.sessions.create({
      botId,
      userId: chatUserId(dto.authToken),
      version: dto.version,
      ...(dto.deviceToken !== undefined ? { deviceToken: dto.deviceToken.trim() } : {}),
      expiresAt: this.expiry(now),
    });
    if (!webhook && !hosted) return session;
    try {
      // The bot answers the user with the reply API (the runtime, for a hosted bot), into the user's web-chat conversation.
      const conversation = await this.conversations.upsert(botId, 'web', session.userId);
      // A builder test's chat page (docs/console.md#try-it): the test started its journey on the draft already; no mirror is told.
      if (typeof conversation.testVersion === 'number') return session;
      // Should the mirror's call below fail, this input stays (the runtime takes it) and the SDK's retry
      // adds a second start: without a JourneySlug it changes nothing while the first journey waits; with
      // one, that journey starts again.
      if (hosted) await this.botInputs.start(botId, conversation.id, dto.payload);
      if (!webhook) return session;
      await this.dispatcher.enqueue(botId, {
        type: 'session.started',
        id: randomUUID(),
        botId,
        sessionId: session.id,
        userId: session.userId,
        payload: JSON.stringify(dto.payload), // the spec: the payload reaches the bot as a JSON string, always
        version: dto.version,
        conversationId: conversation.id,
        createdAt: now.toISOString(),
      });
    } catch (err) {
      // Not queued, so not kept: the SDK gets 500 and retries.
      await this.sessions.delete(session.id).catch(() => undefined);
      throw err;
    }
    return session;
  }

  /**
   * The live session when `token` is its chat token, marked as used (its expiry slides); 'gone' when
   * there is no such live session.
   */
  async check(botId: string, sessionId: string, token: string): Promise<SessionCheck> {
    if (!isChatToken(token)) return 'unauthorized';
    if (!isUuid(botId) || !isUuid(sessionId)) return 'gone';
    const now = new Date();
    // Matched on the token's SHA-256 in the statement: a caller cannot steer the hash, so the database's
    // comparison tells nothing about the stored one. Only a miss asks again, to tell 401 from 404.
    const used = await this.sessions.useLive(botId, sessionId, chatUserId(token), now, this.expiry(now));
    if (used) return used;
    const session = await this.sessions.findLive(botId, sessionId, now);
    if (!session) return 'gone';
    return safeEqual(chatUserId(token), session.userId) ? session : 'unauthorized';
  }

  /** Pushes the session's expiry forward (it is in use). */
  async touch(sessionId: string): Promise<void> {
    const now = new Date();
    await this.sessions.touch(sessionId, now, this.expiry(now));
  }

  /** Queues an app event for the bot's webhook; returns the delivery id. */
  async sendAppEvent(session: SdkSession, dto: AppEventDto): Promise<string> {
    const settings = await this.callbacks.find(session.botId);
    if (!settings?.endpoints.webhook) {
      // A hosted bot's journeys have no node that receives app events yet; its webhook (a mirror), when set, still gets them.
      if (await this.botInputs.hosted(session.botId)) throw new ConflictException('Hosted bots do not take app events yet (set a webhook to receive them)');
      throw new ConflictException('This bot has no webhook to deliver app events to');
    }
    const id = randomUUID();
    await this.dispatcher.enqueue(session.botId, {
      type: 'app.event',
      id,
      botId: session.botId,
      sessionId: session.id,
      userId: session.userId,
      code: dto.code,
      data: JSON.stringify(dto.data ?? {}),
      createdAt: new Date().toISOString(),
    });
    return id;
  }

  private expiry(now: Date): Date {
    return new Date(now.getTime() + this.env.SDK_SESSION_TTL_SECONDS * 1000);
  }
}
