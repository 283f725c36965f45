import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { PushEnv } from '@platform/config';
import type { LoadedPushConfig } from '../service-accounts/push-config.service.js';
import type { AccessTokenProvider } from './access-token.provider.js';
import type { FcmBody } from './fcm-message.js';
import type { Http2Pool, Http2Requests, Http2Response } from './http2-pool.js';
import type { FcmPacer } from './fcm-pacer.js';

// The sender waits with timers/promises, which Jest's fake timers leave alone: route it through the
// global setTimeout they replace, so the waits can be stepped through.
jest.unstable_mockModule('node:timers/promises', () => ({
  setTimeout: (ms: number) => new Promise<void>((resolve) => globalThis.setTimeout(resolve, ms)),
}));
const { FcmSender } = await import('./fcm-sender.js');
const { FcmConfigError } = await import('./fcm-config.error.js');
const { NOT_SENT } = await import('./http2-pool.js');
const { TransientPushError } = await import('./transient-push.error.js');

const env = {
  FCM_API_BASE_URL: 'https://fcm.example',
  FCM_TIMEOUT_MS: 5000,
  FCM_MAX_ATTEMPTS: 3,
  FCM_BACKOFF_MS: 500,
} as PushEnv;
const config = { botId: 'bot-1', projectId: 'proj-1', clientEmail: 'push@proj-1.iam.example' } as LoadedPushConfig;
const body: FcmBody = { parts: ['{"message":{"token":', '}}'], token: 'device-1' };

const ok: Http2Response = { status: 200, headers: {}, body: JSON.stringify({ name: 'projects/proj-1/messages/1' }) };
const fcmError = (status: number, errorStatus: string, message: string, headers: Http2Response['headers'] = {}): Http2Response => ({
  status,
  headers,
  body: JSON.stringify({ error: { code: status, message, status: errorStatus } }),
});
const unavailable = fcmError(503, 'UNAVAILABLE', 'The service is currently unavailable.');

/** Answers `post` from a script (a response, or an error to throw); records each request. */
function setup(script: Array<Http2Response | Error>) {
  const posts: Array<{ at: number; authorization: string; origin: string; path: string; token: string }> = [];
  const many: Http2Requests[] = [];
  const pool = {
    post: async (origin: string, path: string, headers: Record<string, string>, b: FcmBody) => {
      posts.push({ at: Date.now(), authorization: headers.authorization, origin, path, token: b.token });
      const next = script.shift();
      if (!next) throw new Error('the test scripted no more answers');
      if (next instanceof Error) throw next;
      return next;
    },
    postMany: (requests: Http2Requests) => void many.push(requests),
  } as unknown as Http2Pool;
  let current = 'access-1';
  let minted = 1;
  const invalidated: string[] = [];
  const tokens = {
    peek: () => current,
    get: async () => current,
    invalidate: async (_config: LoadedPushConfig, accessToken: string) => {
      invalidated.push(accessToken);
      current = `access-${++minted}`;
    },
  } as unknown as AccessTokenProvider;
  // The project's pacer: lets every message go, and records what the sender told it.
  const admitted: string[] = [];
  const exceeded: Array<[string, number]> = [];
  const pacer = {
    admit: async (projectId: string) => void admitted.push(projectId),
    landed: () => undefined,
    quotaExceeded: async (projectId: string, holdMs: number) => void exceeded.push([projectId, holdMs]),
  } as unknown as FcmPacer;
  return { sender: new FcmSender(pool, tokens, env, pacer), posts, many, invalidated, admitted, exceeded };
}

describe('FcmSender.deliver', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    jest.spyOn(Math, 'random').mockReturnValue(0); // no jitter: the waits are exact
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it("answers sent on 200, posting to the project's messages:send with the access token", async () => {
    const { sender, posts } = setup([ok]);
    await expect(sender.deliver(config, body)).resolves.toEqual({ kind: 'sent' });
    expect(posts).toEqual([{ at: expect.any(Number), authorization: 'Bearer access-1', origin: 'https://fcm.example', path: '/v1/projects/proj-1/messages:send', token: 'device-1' }]);
  });

  it('answers invalid for an unregistered token and for one FCM calls not a valid registration token, without retrying', async () => {
    const gone = setup([fcmError(404, 'UNREGISTERED', 'Requested entity was not found.')]);
    await expect(gone.sender.deliver(config, body)).resolves.toEqual({ kind: 'invalid', reason: 'UNREGISTERED' });
    expect(gone.posts).toHaveLength(1);
    const bad = setup([fcmError(400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token')]);
    await expect(bad.sender.deliver(config, body)).resolves.toEqual({ kind: 'invalid', reason: 'INVALID_TOKEN' });
    expect(bad.posts).toHaveLength(1);
  });

  it('answers failed, with the reason, for a message FCM refuses for itself (not the token)', async () => {
    const { sender, posts } = setup([fcmError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.')]);
    await expect(sender.deliver(config, body)).resolves.toEqual({ kind: 'failed', reason: 'INVALID_ARGUMENT: Invalid JSON payload received.' });
    expect(posts).toHaveLength(1);
  });

  it('drops a refused access token and tries once more with a fresh one', async () => {
    const { sender, posts, invalidated } = setup([fcmError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'), ok]);
    await expect(sender.deliver(config, body)).resolves.toEqual({ kind: 'sent' });
    expect(invalidated).toEqual(['access-1']);
    expect(posts.map((p) => p.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
  });

  it('gives up with FcmConfigError when FCM refuses the fresh access token too', async () => {
    const refused = () => fcmError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    const { sender, posts } = setup([refused(), refused(), ok]);
    await expect(sender.deliver(config, body)).rejects.toBeInstanceOf(FcmConfigError);
    expect(posts).toHaveLength(2);
  });

  it('retries UNAVAILABLE and 5xx with exponential backoff, and answers unresolved after FCM_MAX_ATTEMPTS', async () => {
    const { sender, posts } = setup([unavailable, fcmError(500, 'INTERNAL', 'Internal error.'), unavailable, ok]);
    const outcome = sender.deliver(config, body);
    await jest.advanceTimersByTimeAsync(499);
    expect(posts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1); // FCM_BACKOFF_MS
    expect(posts).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(999);
    expect(posts).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1); // twice FCM_BACKOFF_MS
    expect(posts).toHaveLength(3);
    await expect(outcome).resolves.toEqual({ kind: 'unresolved', reason: 'UNAVAILABLE' });
    expect(posts).toHaveLength(3);
  });

  it('retries when FCM cannot be reached, as for a 5xx', async () => {
    const { sender, posts } = setup([new TransientPushError('connect ECONNREFUSED 127.0.0.1:443'), ok]);
    const outcome = sender.deliver(config, body);
    await jest.advanceTimersByTimeAsync(500);
    await expect(outcome).resolves.toEqual({ kind: 'sent' });
    expect(posts).toHaveLength(2);
  });

  it("waits FCM's Retry-After instead of the backoff", async () => {
    const { sender, posts } = setup([fcmError(503, 'UNAVAILABLE', 'Try later.', { 'retry-after': '7' }), ok]);
    const outcome = sender.deliver(config, body);
    await jest.advanceTimersByTimeAsync(6_999);
    expect(posts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toEqual({ kind: 'sent' });
    expect(posts.map((p) => p.at - posts[0].at)).toEqual([0, 7_000]);
  });

  it("holds every message of the project for a 429's Retry-After, tells the pacer (every replica holds), and passes each try through it", async () => {
    const { sender, posts, admitted, exceeded } = setup([fcmError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.', { 'retry-after': '30' }), ok, ok]);
    const first = sender.deliver(config, body);
    await jest.advanceTimersByTimeAsync(0);
    const second = sender.deliver(config, { ...body, token: 'device-2' });
    await jest.advanceTimersByTimeAsync(29_999);
    expect(posts).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await expect(first).resolves.toEqual({ kind: 'sent' });
    await expect(second).resolves.toEqual({ kind: 'sent' });
    expect(posts.map((p) => [p.token, p.at - posts[0].at])).toEqual([
      ['device-1', 0],
      ['device-1', 30_000],
      ['device-2', 30_000],
    ]);
    expect(exceeded).toEqual([['proj-1', 30_000]]);
    expect(admitted).toEqual(['proj-1', 'proj-1', 'proj-1']);
  });

  it('runs beforeResend before each request after the first, and sends nothing more once it throws', async () => {
    const checks: number[] = [];
    const { sender, posts } = setup([unavailable, unavailable, ok]);
    let allowed = 1;
    const beforeResend = async () => {
      checks.push(posts.length);
      if (allowed-- <= 0) throw new Error('the batch was taken over');
    };
    const outcome = sender.deliver(config, body, undefined, undefined, beforeResend);
    const rejected = expect(outcome).rejects.toThrow('the batch was taken over');
    await jest.advanceTimersByTimeAsync(500 + 1000);
    await rejected;
    expect(checks).toEqual([1, 2]); // not before the first request; before each retry
    expect(posts).toHaveLength(2);
  });

  it('stops retrying once the notification is stopped', async () => {
    let stopped = false;
    const { sender, posts } = setup([unavailable, ok]);
    const outcome = sender.deliver(config, body, () => stopped);
    await jest.advanceTimersByTimeAsync(0);
    stopped = true;
    await jest.advanceTimersByTimeAsync(500);
    await expect(outcome).resolves.toEqual({ kind: 'failed', reason: 'notification stopped' });
    expect(posts).toHaveLength(1);
  });
});

describe('FcmSender.deliverMany', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('answers requests the pool cancelled as not sent, and the others from their answers', async () => {
    const { sender, many } = setup([]);
    const results: Array<[number, unknown]> = [];
    const done = sender.deliverMany(
      config,
      body.parts,
      ['d0', 'd1', 'd2'],
      () => true,
      (i, r) => void results.push([i, r]),
    );
    await new Promise((r) => setImmediate(r));
    expect(many).toHaveLength(1);
    expect(many[0]).toMatchObject({ path: '/v1/projects/proj-1/messages:send', headers: { authorization: 'Bearer access-1' }, tokens: ['d0', 'd1', 'd2'] });
    many[0].onAnswer(0, ok);
    many[0].onAnswer(1, NOT_SENT);
    many[0].onAnswer(2, fcmError(404, 'UNREGISTERED', 'Requested entity was not found.'));
    await done;
    expect(results.sort(([a], [b]) => a - b)).toEqual([
      [0, { kind: 'sent' }],
      [1, { kind: 'failed', reason: 'notification stopped' }],
      [2, { kind: 'invalid', reason: 'UNREGISTERED' }],
    ]);
  });
});

describe('FcmSender.deliverMany: when the chunk has landed', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    jest.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it("says so once every first request has its answer, while a 429'd message still waits for its retry (paced on its own)", async () => {
    const { sender, many, posts, admitted } = setup([ok]);
    const results: Array<[number, unknown]> = [];
    let firstAnswered = 0;
    let settled = false;
    const done = sender
      .deliverMany(
        config,
        body.parts,
        ['d0', 'd1', 'd2'],
        () => false,
        (i, r) => void results.push([i, r]),
        undefined,
        () => firstAnswered++,
      )
      .then(() => (settled = true));
    await jest.advanceTimersByTimeAsync(0);
    many[0].onAnswer(0, ok);
    many[0].onAnswer(1, fcmError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.', { 'retry-after': '30' }));
    expect(firstAnswered).toBe(0); // d2 is still on its way to FCM
    many[0].onAnswer(2, NOT_SENT);
    expect(firstAnswered).toBe(1);
    await jest.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false); // d1's retry waits out the Retry-After: the chunk no longer counts meanwhile
    expect(posts).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    await done;
    expect(posts.map((p) => p.token)).toEqual(['d1']);
    expect(admitted).toEqual(['proj-1']); // the retry took its own share of the budget
    expect(firstAnswered).toBe(1);
    expect(results.sort(([a], [b]) => a - b)).toEqual([
      [0, { kind: 'sent' }],
      [1, { kind: 'sent' }],
      [2, { kind: 'failed', reason: 'notification stopped' }],
    ]);
  });

  it('says so at once for a chunk with no tokens', async () => {
    const { sender } = setup([]);
    let firstAnswered = 0;
    await sender.deliverMany(
      config,
      body.parts,
      [],
      () => false,
      () => undefined,
      undefined,
      () => firstAnswered++,
    );
    expect(firstAnswered).toBe(1);
  });
});

describe('FcmSender.deliverMany with a guard', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it("holds the pool's requests as the guard says, and answers those not sent once it is lost with its error", async () => {
    const { sender, many } = setup([]);
    let hold = 0;
    let lost = false;
    const takenOver = new Error('the batch was taken over');
    const guard = { beforeResend: async () => undefined, holdMs: () => hold, lost: () => lost, heldBack: () => takenOver };
    const results: Array<[number, unknown]> = [];
    const done = sender.deliverMany(
      config,
      body.parts,
      ['d0', 'd1'],
      () => false,
      (i, r) => void results.push([i, r]),
      guard,
    );
    await new Promise((r) => setImmediate(r));
    const job = many[0];
    expect(job.holdMs!()).toBe(0);
    hold = 50;
    expect(job.holdMs!()).toBe(50);
    expect(job.cancelled!()).toBe(false);
    lost = true;
    expect(job.cancelled!()).toBe(true);
    job.onAnswer(0, ok);
    job.onAnswer(1, NOT_SENT);
    await done;
    expect(results).toEqual([
      [0, { kind: 'sent' }],
      [1, takenOver],
    ]);
  });
});

describe('FcmSender.sendOnce', () => {
  it("hands back FCM's answer with its verdict, retrying once with a fresh access token after a 401", async () => {
    const refused = fcmError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    const { sender, posts, invalidated } = setup([refused, fcmError(404, 'UNREGISTERED', 'gone')]);
    const { response, verdict } = await sender.sendOnce(config, body);
    expect(response.status).toBe(404);
    expect(verdict).toMatchObject({ kind: 'invalid', reason: 'UNREGISTERED' });
    expect(invalidated).toEqual(['access-1']);
    expect(posts).toHaveLength(2);
  });

  it('throws TransientPushError when FCM cannot be reached (no retries)', async () => {
    const { sender, posts } = setup([new TransientPushError('connect ECONNREFUSED 127.0.0.1:443'), ok]);
    await expect(sender.sendOnce(config, body)).rejects.toEqual(new TransientPushError('connect ECONNREFUSED 127.0.0.1:443'));
    expect(posts).toHaveLength(1);
  });
});
