import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { PushEnv } from '@platform/config';
import type { LoadedPushConfig } from '../service-accounts/push-config.service.js';
import { AccessTokenProvider } from './access-token.provider.js';
import { FcmConfigError } from './fcm-config.error.js';
import { FcmPacer } from './fcm-pacer.js';
import type { FcmBody } from './fcm-message.js';
import { FcmVerdict, classifyFcmResponse } from './fcm-response.js';
import { Http2Pool, Http2Response, NOT_SENT } from './http2-pool.js';
import { TransientPushError } from './transient-push.error.js';
import type { SendGuard } from './send-guard.js';

/** Google's advice for 429 without Retry-After: wait at least a minute. */
const DEFAULT_QUOTA_BACKOFF_MS = 60_000;

export type DeliveryOutcome =
  | { kind: 'sent' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'failed'; reason: string }
  /** Still failing transiently after FCM_MAX_ATTEMPTS: the batch job tries it again later. */
  | { kind: 'unresolved'; reason: string };

/**
 * Sends FCM HTTP v1 messages. firebase-admin is not used: its messaging client always talks to
 * fcm.googleapis.com (the base URL cannot be pointed at a loopback server for tests and the local
 * demo) and pulls in google-auth-library, for what is one HTTP/2 POST and one token request.
 */
@Injectable()
export class FcmSender {
  private readonly logger = new Logger('FcmSender');
  /** Per Firebase project: no request before this time (set by 429 QUOTA_EXCEEDED). */
  private readonly quotaUntil = new Map<string, number>();

  constructor(
    private readonly pool: Http2Pool,
    private readonly tokens: AccessTokenProvider,
    private readonly env: PushEnv,
    private readonly pacer: FcmPacer,
  ) {}

  /**
   * Delivers one message with FCM's retry rules: 500/503 with exponential backoff (or Retry-After),
   * 429 honouring Retry-After for the whole project, 401 once more with a fresh access token.
   * Throws CredentialsRejectedError / FcmConfigError when no message of this bot can be sent;
   * `stopped` ends the retries early (another message of the batch hit such an error).
   * `beforeResend` runs before each request after the first, once the pacer let it go: what it throws
   * (e.g. the batch was taken over by another run) is thrown instead of sending again.
   */
  async deliver(config: LoadedPushConfig, body: FcmBody, stopped: () => boolean = () => false, first?: Attempt, beforeResend?: () => Promise<void>): Promise<DeliveryOutcome> {
    let attempts = 0;
    let refreshedToken = false;
    let tried = first !== undefined;
    for (;;) {
      if (!first && this.quotaUntil.size > 0) await this.waitForQuota(config.projectId);
      if (!first && stopped()) return { kind: 'failed', reason: 'notification stopped' };
      // A retry is one more message against the project's quota (the first attempts were paced by the batch).
      const chunk = first ? undefined : await this.pacer.admit(config.projectId, config.quotaPerMinute, stopped);
      const { verdict, accessToken } = first ?? (await this.resend(config, body, tried ? beforeResend : undefined).finally(() => this.pacer.landed(config.projectId, chunk)));
      first = undefined;
      tried = true;
      switch (verdict.kind) {
        case 'sent':
          return { kind: 'sent' };
        case 'invalid':
          return { kind: 'invalid', reason: verdict.reason };
        case 'failed':
          return { kind: 'failed', reason: `${verdict.reason}: ${verdict.text}` };
        case 'config':
          throw new FcmConfigError(configMessage(config, verdict.text));
        case 'unauthenticated':
          await this.tokens.invalidate(config, accessToken);
          if (refreshedToken) throw new FcmConfigError(`FCM refused fresh access tokens of ${config.clientEmail}: ${verdict.text}`);
          refreshedToken = true;
          continue;
        case 'retry': {
          attempts++;
          if (attempts >= this.env.FCM_MAX_ATTEMPTS) return { kind: 'unresolved', reason: verdict.reason };
          const delay = verdict.afterMs ?? (verdict.quota ? DEFAULT_QUOTA_BACKOFF_MS : this.backoff(attempts));
          if (verdict.quota) {
            this.blockProject(config.projectId, delay);
            // Every replica holds the project, then goes on slower; Redis down: this process's hold still applies.
            this.pacer.quotaExceeded(config.projectId, delay).catch((err: Error) => this.logger.warn(`FCM quota hold not shared: ${err.message}`));
          }
          await sleep(delay + (verdict.afterMs !== undefined ? Math.floor(Math.random() * 50) : 0));
        }
      }
    }
  }

  /**
   * deliver() for every token of a batch, without a promise per message: the first attempts go to the
   * pool as one job; an answer that needs more (a retry, a fresh access token) continues in deliver().
   * `onResult(i, …)` gets each token's outcome, or the error deliver() would have thrown; resolves
   * once every token has its result. While FCM's quota for the project is exceeded, nothing is sent.
   * `guard`: a request queued in the pool goes out only while it allows (else it is held, or answered
   * with the guard's error), and a retry of a token only once its `beforeResend` resolved.
   * `firstAnswered` runs once every token's first request has its answer (or was not sent), before the
   * retries those answers call for: the pacer's chunk has landed then, and each retry is paced as a
   * message of its own (deliver() admits it), so the chunk must not keep counting through their backoff.
   */
  async deliverMany(
    config: LoadedPushConfig,
    parts: FcmBody['parts'],
    tokens: readonly string[],
    stopped: () => boolean,
    onResult: (index: number, result: DeliveryOutcome | Error) => void,
    guard?: SendGuard,
    firstAnswered?: () => void,
  ): Promise<void> {
    if (tokens.length === 0) return firstAnswered?.();
    let accessToken: string;
    try {
      accessToken = this.tokens.peek(config) ?? (await this.tokens.get(config));
    } catch (err) {
      firstAnswered?.(); // nothing went to FCM
      tokens.forEach((_, i) => onResult(i, err as Error)); // e.g. CredentialsRejectedError: every message fails alike
      return;
    }
    let unanswered = tokens.length;
    let left = tokens.length;
    let allDone!: () => void;
    const done = new Promise<void>((resolve) => (allDone = resolve));
    const report = (i: number, result: DeliveryOutcome | Error) => {
      onResult(i, result);
      if (--left === 0) allDone();
    };
    this.pool.postMany({
      ...this.request(config, accessToken),
      parts,
      tokens,
      holdMs: () => Math.max(this.quotaUntil.size > 0 ? Math.max(0, (this.quotaUntil.get(config.projectId) ?? 0) - Date.now()) : 0, guard?.holdMs() ?? 0),
      cancelled: guard ? () => guard.lost() || stopped() : stopped,
      onAnswer: (i, answer) => {
        if (--unanswered === 0) firstAnswered?.();
        if (answer === NOT_SENT) return report(i, guard?.lost() ? guard.heldBack() : { kind: 'failed', reason: 'notification stopped' });
        const verdict = answer instanceof Error ? retryVerdict(answer) : classifyFcmResponse(answer);
        if (verdict.kind === 'sent') return report(i, { kind: 'sent' });
        this.deliver(config, { parts, token: tokens[i] }, stopped, { verdict, accessToken }, guard && (() => guard.beforeResend())).then(
          (outcome) => report(i, outcome),
          (err: Error) => report(i, err),
        );
      },
    });
    await done;
  }

  /** One request, no retries (the test-send route): FCM's status and body as they came. */
  async sendOnce(config: LoadedPushConfig, body: FcmBody): Promise<{ response: Http2Response; verdict: FcmVerdict }> {
    let { response, verdict, accessToken } = await this.attempt(config, body);
    if (verdict.kind === 'unauthenticated') {
      await this.tokens.invalidate(config, accessToken);
      ({ response, verdict } = await this.attempt(config, body));
    }
    if (!response) throw new TransientPushError(verdict.kind === 'retry' ? verdict.reason : 'FCM unreachable');
    return { response, verdict };
  }

  private async resend(config: LoadedPushConfig, body: FcmBody, beforeResend?: () => Promise<void>): Promise<Attempt> {
    await beforeResend?.();
    return this.attempt(config, body);
  }

  private async attempt(config: LoadedPushConfig, body: FcmBody): Promise<Attempt & { response?: Http2Response }> {
    const accessToken = this.tokens.peek(config) ?? (await this.tokens.get(config));
    const { origin, path, headers, timeoutMs } = this.request(config, accessToken);
    let response: Http2Response;
    try {
      response = await this.pool.post(origin, path, headers, body, timeoutMs);
    } catch (err) {
      return { verdict: retryVerdict(err as Error), accessToken };
    }
    return { verdict: classifyFcmResponse(response), accessToken, response };
  }

  private request(config: LoadedPushConfig, accessToken: string) {
    return {
      origin: this.env.FCM_API_BASE_URL,
      path: `/v1/projects/${encodeURIComponent(config.projectId)}/messages:send`,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json; charset=UTF-8' },
      timeoutMs: this.env.FCM_TIMEOUT_MS,
    };
  }

  private backoff(attempt: number): number {
    const base = this.env.FCM_BACKOFF_MS * 2 ** (attempt - 1);
    return Math.round(base * (1 + Math.random() * 0.5));
  }

  private blockProject(projectId: string, ms: number): void {
    const until = Date.now() + ms;
    if ((this.quotaUntil.get(projectId) ?? 0) < until) {
      this.quotaUntil.set(projectId, until);
      this.logger.warn(`FCM quota exceeded for project ${projectId}: pausing its messages for ${Math.ceil(ms / 1000)} s`);
    }
  }

  private async waitForQuota(projectId: string): Promise<void> {
    for (;;) {
      const until = this.quotaUntil.get(projectId);
      if (until === undefined) return;
      const wait = until - Date.now();
      if (wait <= 0) {
        this.quotaUntil.delete(projectId);
        return;
      }
      await sleep(wait);
    }
  }
}

/** One request's verdict and the access token it carried. */
interface Attempt {
  verdict: FcmVerdict;
  accessToken: string;
}

/** FCM could not be reached (connection refused, reset, timeout): try again. */
function retryVerdict(err: Error): FcmVerdict {
  return { kind: 'retry', reason: err.message, quota: false };
}

function configMessage(config: LoadedPushConfig, text: string): string {
  return (
    `FCM refused to send for Firebase project ${config.projectId} with service account ${config.clientEmail} (PERMISSION_DENIED: ${text}). ` +
    'Check that the Firebase Cloud Messaging API is enabled in the project and that the service account has the Firebase Cloud Messaging permission.'
  );
}
