import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { register } from 'prom-client';
import type { CarouselDispatchJob } from '@platform/contracts';
import type { SecretBox } from '@platform/crypto';
import {
  DatabaseUnavailableError,
  type AcceptedMessage,
  type CarouselCatalog,
  type ChannelSender,
  type BusyMessage,
  type ClaimedMessage,
  type MessageRepository,
  type Template,
} from '@platform/database';
import { CarouselDispatchHandler } from './carousel-dispatch.handler.js';
import type { CampaignStates } from '../campaigns/campaign-states.js';
import type { JobLockEnv, WhatsAppEnv, WhatsAppRetryEnv } from '@platform/config';
import type { Clock } from '@platform/common';
import type { MessageLifecyclePublisher } from '@platform/queue';
import type { CountedSend, PaceDecision, SendOutcome, SendPermit, SenderPacer, WhatsAppCloudClient } from '@platform/whatsapp';

const data: CarouselDispatchJob = {
  messageId: 'm1',
  botId: 'b1',
  templateId: 't1',
  senderId: 's1',
  channel: 'whatsapp',
  recipient: '5511999990000',
  cards: [{ mediaLink: 'https://cdn.example/1.jpg', bodyParameters: ['Hi'] }, { mediaLink: 'https://cdn.example/2.jpg' }],
};

const template = { id: 't1', providerName: 'promo', language: 'pt_BR', cardHeaderFormat: 'image' } as unknown as Template;
const sender = { id: 's1', phoneNumberId: 'pn-1', accessTokenEncrypted: 'sealed-token', throughput: 80 } as unknown as ChannelSender;

/** carousel_send_attempts_total for one outcome. */
async function attemptsCounted(outcome: string): Promise<number> {
  const metric = await register.getSingleMetric('carousel_send_attempts_total')!.get();
  return metric.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

const ACCEPTED_AT = Date.parse('2026-01-02T03:04:05Z');

/** A job as BullMQ hands it over; updateData replaces its data, as Redis would for the next run. */
function fakeJob(attemptsMade = 0, attempts = 3, extra: Partial<CarouselDispatchJob> = {}) {
  const delays: Array<[number, string | undefined]> = [];
  const job = {
    data: { ...data, ...extra },
    timestamp: ACCEPTED_AT,
    attemptsMade,
    opts: { attempts },
    moveToDelayed: async (timestamp: number, token?: string) => void delays.push([timestamp, token]),
    updateData: async (next: CarouselDispatchJob) => void (job.data = next),
  } as unknown as Job<CarouselDispatchJob>;
  return { job, delays };
}

/** A send slot the pacer let the job go with. */
const permit = (): SendPermit => ({ phoneNumberId: 'pn-1', rate: 80, id: 'r:job-1', at: Date.now(), settled: false });

/** Handles the job under lock `lock-1`, expecting it moved to delayed once with that lock (DelayedError); how far ahead, in ms from just before. */
async function handleDelayed(handler: CarouselDispatchHandler, { job, delays } = fakeJob()): Promise<number> {
  const before = Date.now();
  await expect(handler.handle(job, 'lock-1')).rejects.toBeInstanceOf(DelayedError);
  expect(delays).toHaveLength(1);
  expect(delays[0][1]).toBe('lock-1');
  return delays[0][0] - before;
}

interface Options {
  claim?: (m: AcceptedMessage) => ClaimedMessage | BusyMessage | null;
  claimError?: unknown;
  outcome?: SendOutcome;
  decrypt?: (sealed: string) => string;
  template?: Template | null;
  sender?: ChannelSender | null;
  /** What the pacer answers before the claim (default: go). */
  reserve?: PaceDecision;
  /** Set: the pacer finds no second of the sender with room within the wait the handler allows, asking it to wait this long. */
  secondFullMs?: number;
  releaseError?: unknown;
  /** Thrown by the first markSentMany (then it records). */
  markSentError?: unknown;
  /** What the handler's clock reads (default: the acceptance time plus a minute). */
  now?: number;
  /** The campaign's status the handler reads (campaign jobs). */
  campaignStatus?: string | null;
  /** What failOutcomeUnknown finds: a message mid-attempt (default) or none. */
  midAttempt?: boolean;
}

function setup(o: Options = {}) {
  const claimed: AcceptedMessage[] = [];
  const claimBatches: number[] = [];
  const sentRows: Array<{ id: string; providerMessageId: string }> = [];
  const errors: Array<[string, string | null, string, boolean]> = [];
  const sends: Array<{ phoneNumberId: string; token: string; body: unknown }> = [];
  const released: string[] = [];
  const paced: Array<{ phase: 'reserve' | 'send'; phoneNumberId: string; rate: number; maxWaitMs?: number; permit?: SendPermit }> = [];
  /** Permits given back to the pacer (release called with one not yet used). */
  const permitsBack: SendPermit[] = [];
  const published: unknown[] = [];
  const throttledRows: string[] = [];
  const claimedOnce: boolean[] = [];
  const leases: number[] = [];
  const parked: string[] = [];
  const unknown: string[] = [];
  const cancelled: string[] = [];
  let markSentError = o.markSentError;
  const messages = {
    startAttempts: async (batch: readonly AcceptedMessage[], leaseMs: number, atMostOnce = false) => {
      claimed.push(...batch);
      leases.push(leaseMs);
      claimedOnce.push(atMostOnce);
      claimBatches.push(batch.length);
      if (o.claimError) throw o.claimError;
      return batch.map((m) => (o.claim ? o.claim(m) : { id: m.id, templateId: m.templateId, senderId: m.senderId, recipient: m.recipient, attempts: 2 }));
    },
    currentChange: async (id: string) => ({ messageId: id, status: 'failed' }),
    markSentMany: async (batch: ReadonlyArray<{ id: string; providerMessageId: string }>) => {
      const err = markSentError;
      markSentError = undefined;
      if (err) throw err;
      sentRows.push(...batch);
      return batch.map((b) => [{ messageId: b.id, status: 'sent' }]);
    },
    recordThrottled: async (id: string) => void throttledRows.push(id),
    recordError: async (id: string, code: string | null, text: string, final: boolean) => void errors.push([id, code, text, final]),
    parkAttempt: async (id: string) => void parked.push(id),
    failOutcomeUnknown: async (id: string) => (unknown.push(id), o.midAttempt === false ? null : { messageId: id, status: 'failed' }),
    releaseAttempt: async (id: string) => {
      if (o.releaseError) throw o.releaseError;
      released.push(id);
    },
  } as unknown as MessageRepository;
  const whatsapp = {
    send: async (phoneNumberId: string, token: string, body: unknown) => {
      sends.push({ phoneNumberId, token, body });
      return o.outcome ?? { kind: 'sent', providerMessageId: 'wamid.1' };
    },
  } as unknown as WhatsAppCloudClient;
  const secrets = { decrypt: o.decrypt ?? ((sealed: string) => `plain:${sealed}`) } as unknown as SecretBox;
  const catalog = {
    template: async (id: string) => (o.template === undefined ? (id === 't1' ? template : null) : o.template),
    sender: async (id: string) => (o.sender === undefined ? (id === 's1' ? sender : null) : o.sender),
  } as unknown as CarouselCatalog;
  // Which pacing answer leads where; the pacing itself is proven by its e2e tests against Redis.
  const pacer = {
    reserve: async (phoneNumberId: string, _jobId: string, rate: number) => {
      paced.push({ phase: 'reserve', phoneNumberId, rate });
      return o.reserve ?? { go: true };
    },
    sendCounted: async <T>(phoneNumberId: string, rate: number, send: () => Promise<T>, maxWaitMs?: number, permit?: SendPermit): Promise<CountedSend<T>> => {
      paced.push({ phase: 'send', phoneNumberId, rate, maxWaitMs, ...(permit ? { permit } : {}) });
      if (permit) permit.settled = true;
      return o.secondFullMs === undefined ? { sent: true, value: await send() } : { sent: false, waitMs: o.secondFullMs };
    },
    slowDown: async () => 1,
    release: (permit?: SendPermit) => {
      if (permit && !permit.settled) permitsBack.push(permit);
    },
  } as unknown as SenderPacer;
  const env = { WHATSAPP_BACKOFF_MS: 2000, WHATSAPP_BACKOFF_MAX_MS: 300_000 } as WhatsAppRetryEnv;
  const lifecycle = { publish: async (changes: unknown[]) => void published.push(...changes) } as unknown as MessageLifecyclePublisher;
  const clock = { now: () => o.now ?? ACCEPTED_AT + 60_000, realMs: (ms: number) => ms } as Clock;
  const campaigns = {
    status: async () => (o.campaignStatus === undefined ? 'running' : o.campaignStatus),
    cancelUnsent: async (id: string) => void cancelled.push(id),
  } as unknown as CampaignStates;
  const handler = new CarouselDispatchHandler(
    messages,
    whatsapp,
    secrets,
    catalog,
    pacer,
    env,
    { WHATSAPP_TIMEOUT_MS: 8000 } as WhatsAppEnv,
    { WORKER_LOCK_MS: 30_000 } as JobLockEnv,
    lifecycle,
    clock,
    campaigns,
  );
  return { handler, leases, claimed, claimBatches, sentRows, errors, sends, released, paced, permitsBack, published, throttledRows, claimedOnce, parked, unknown, cancelled };
}

describe('CarouselDispatchHandler', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('claims the message from its job, sends the rendered carousel with the decrypted token and records the wamid', async () => {
    const { handler, claimed, sentRows, errors, sends } = setup();
    const { job } = fakeJob();
    const countedBefore = await attemptsCounted('sent');
    await expect(handler.handle(job)).resolves.toBe('wamid.1');
    expect(await attemptsCounted('sent')).toBe(countedBefore + 1);
    expect(claimed).toEqual([{ id: 'm1', botId: 'b1', templateId: 't1', senderId: 's1', channel: 'whatsapp', recipient: '5511999990000', acceptedAt: new Date('2026-01-02T03:04:05Z') }]);
    expect(sends).toHaveLength(1);
    expect(sends[0].phoneNumberId).toBe('pn-1');
    expect(sends[0].token).toBe('plain:sealed-token');
    expect(sends[0].body).toMatchObject({
      to: '5511999990000',
      template: { name: 'promo', language: { code: 'pt_BR' }, components: [{ type: 'carousel', cards: [{ card_index: 0 }, { card_index: 1 }] }] },
    });
    expect(sentRows).toEqual([{ id: 'm1', providerMessageId: 'wamid.1' }]);
    expect(errors).toEqual([]);
  });

  it('claims concurrent jobs in one statement (one batch per event-loop turn)', async () => {
    const { handler, claimBatches } = setup();
    await Promise.all([handler.handle(fakeJob().job), handler.handle(fakeJob().job)]);
    expect(claimBatches).toEqual([2]);
  });

  it('waits in the delayed set after a transient outcome, its last error recorded (not final) and its retries counted on the job', async () => {
    const { handler, errors, sentRows } = setup({ outcome: { kind: 'retry', code: 'http_503', text: 'Service Unavailable' } });
    const countedBefore = await attemptsCounted('retry');
    const fake = fakeJob(0, 3, { retries: 3 });
    const delayMs = await handleDelayed(handler, fake);
    expect(await attemptsCounted('retry')).toBe(countedBefore + 1);
    expect(errors).toEqual([['m1', 'http_503', 'Service Unavailable', false]]);
    expect(sentRows).toEqual([]);
    expect(fake.job.data.retries).toBe(4);
    // The 4th retry: 2 s doubled three times, jittered at most half downward.
    expect(delayMs).toBeGreaterThanOrEqual(8000);
    expect(delayMs).toBeLessThanOrEqual(16_000 + 1000);
  });

  it('keeps retrying a transient outcome on what was its last BullMQ attempt: attempts only bound crashes', async () => {
    const { handler, errors } = setup({ outcome: { kind: 'retry', code: 'timeout', text: 'no answer' } });
    const err = await handler.handle(fakeJob(2, 3).job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DelayedError);
    expect(errors).toEqual([['m1', 'timeout', 'no answer', false]]);
  });

  it('fails the message as expired, and publishes it, when the next try would come after its validity', async () => {
    const { handler, errors, published } = setup({
      outcome: { kind: 'retry', code: 'http_503', text: 'Service Unavailable' },
      now: ACCEPTED_AT + 3600 * 1000, // a 3600 s validity ends now
    });
    const { job, delays } = fakeJob(0, 3, { validitySeconds: 3600 });
    const err = await handler.handle(job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(delays).toEqual([]);
    expect(errors).toEqual([['m1', 'expired', expect.stringMatching(/validity of 3600 s.*http_503 Service Unavailable/), true]]);
    expect(published).toEqual([{ messageId: 'm1', status: 'failed' }]);
  });

  it('fails as expired without sending a message whose validity (4 h by default) ended while it waited', async () => {
    const { handler, errors, sends } = setup({ now: ACCEPTED_AT + 4 * 3600 * 1000 + 1 });
    const err = await handler.handle(fakeJob().job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(sends).toEqual([]);
    expect(errors).toEqual([['m1', 'expired', expect.stringMatching(/validity of 14400 s/), true]]);
  });

  it("waits Meta's throttling delay without counting an attempt, within the validity", async () => {
    const { handler, throttledRows, errors } = setup({ outcome: { kind: 'throttled', scope: 'pair', code: '131056', text: 'pair rate limit hit', retryAfterMs: 7000 } });
    const { job, delays } = fakeJob();
    const before = Date.now();
    await expect(handler.handle(job)).rejects.toBeInstanceOf(DelayedError);
    expect(throttledRows).toEqual(['m1']);
    expect(errors).toEqual([]);
    expect(job.data.throttles).toBe(1);
    expect(delays[0][0] - before).toBeGreaterThanOrEqual(7000);
  });

  it('records a send in Postgres without writing the job (no Redis write per message on the way)', async () => {
    const { handler, sentRows } = setup();
    const fake = fakeJob();
    await expect(handler.handle(fake.job, 'lock-1')).resolves.toBe('wamid.1');
    expect(sentRows).toEqual([{ id: 'm1', providerMessageId: 'wamid.1' }]);
    expect(fake.job.data.providerMessageId).toBeUndefined();
  });

  it('keeps the wamid on the job when recording the send fails: the job waits while Postgres is down and its next run records without sending', async () => {
    const { handler, sends, sentRows, published } = setup({ markSentError: new DatabaseUnavailableError(new Error('ECONNREFUSED')) });
    const fake = fakeJob();
    await handleDelayed(handler, fake);
    expect(sends).toHaveLength(1);
    expect(fake.job.data.providerMessageId).toBe('wamid.1');
    expect(sentRows).toEqual([]);

    await expect(handler.handle(fake.job, 'lock-2')).resolves.toBe('wamid.1');
    expect(sends).toHaveLength(1);
    expect(sentRows).toEqual([{ id: 'm1', providerMessageId: 'wamid.1' }]);
    expect(published).toEqual([{ messageId: 'm1', status: 'sent' }]);
  });

  it('records a wamid its job already holds without pacing, claiming or sending', async () => {
    const { handler, sends, claimed, paced, sentRows } = setup();
    await expect(handler.handle(fakeJob(0, 3, { providerMessageId: 'wamid.earlier' }).job)).resolves.toBe('wamid.earlier');
    expect(sends).toEqual([]);
    expect(claimed).toEqual([]);
    expect(paced).toEqual([]);
    expect(sentRows).toEqual([{ id: 'm1', providerMessageId: 'wamid.earlier' }]);
  });

  it("fails the message with Meta's code and text on a final 4xx, ending the job (UnrecoverableError)", async () => {
    const { handler, errors, sentRows } = setup({ outcome: { kind: 'failed', code: '131026', text: 'Message undeliverable' } });
    const err = await handler.handle(fakeJob(0, 3).job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect((err as Error).message).toBe('131026: Message undeliverable');
    expect(errors).toEqual([['m1', '131026', 'Message undeliverable', true]]);
    expect(sentRows).toEqual([]);
  });

  it('moves the job to delayed with its lock token when Postgres is down, without spending an attempt (DelayedError)', async () => {
    const { handler, sends, errors } = setup({ claimError: new DatabaseUnavailableError(new Error('ECONNREFUSED')) });
    expect(await handleDelayed(handler)).toBeGreaterThan(0);
    expect(sends).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('lets other claim errors through unchanged (BullMQ counts the attempt)', async () => {
    const boom = new Error('syntax error at or near "SELEC"');
    const { handler } = setup({ claimError: boom });
    const { job, delays } = fakeJob();
    await expect(handler.handle(job)).rejects.toBe(boom);
    expect(delays).toEqual([]);
  });

  it('records an undecryptable sender token as a credentials error and ends the job without sending', async () => {
    const { handler, errors, sends } = setup({
      decrypt: () => {
        throw new Error('Secret was encrypted under key "old", which is not configured');
      },
    });
    const err = await handler.handle(fakeJob().job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(errors).toEqual([['m1', 'credentials', 'sender access token cannot be decrypted: Secret was encrypted under key "old", which is not configured', true]]);
    expect(sends).toEqual([]);
  });

  it("leases each claim for the job's lock (30 s), the pacing wait (1.5 s), the Cloud API timeout (8 s) and 5 s to record the send", async () => {
    const { handler, leases } = setup();
    await handler.handle(fakeJob().job);
    expect(leases).toEqual([44_500]);
  });

  it("waits in the delayed set until another run's lease on the message ends: nothing sent, nothing recorded, no attempt used", async () => {
    const { handler, sends, errors, released, permitsBack } = setup({ claim: () => ({ busyForMs: 3000 }), reserve: { go: true, permit: permit() } });
    const ahead = await handleDelayed(handler);
    expect(ahead).toBeGreaterThanOrEqual(3000);
    expect(ahead).toBeLessThan(3000 + 1000);
    expect(sends).toEqual([]);
    expect(errors).toEqual([]);
    expect(released).toEqual([]);
    expect(permitsBack).toHaveLength(1); // its counted send given back
  });

  it('skips a message already final (the claim answers null): nothing sent, nothing recorded', async () => {
    const { handler, sends, errors, sentRows } = setup({ claim: () => null });
    await expect(handler.handle(fakeJob().job)).resolves.toMatch(/^skipped/);
    expect(sends).toEqual([]);
    expect(errors).toEqual([]);
    expect(sentRows).toEqual([]);
  });

  it('fails the message as a configuration error when its template or sender was deleted after the claim', async () => {
    const { handler, errors, sends } = setup({ sender: null });
    const err = await handler.handle(fakeJob().job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(errors).toEqual([['m1', 'configuration', 'the template or sender of this message was deleted', true]]);
    expect(sends).toEqual([]);
  });

  it("waits for its sender number's slot before the claim, then counts the send against the rate right before the request", async () => {
    const { handler, paced, sends } = setup();
    await handler.handle(fakeJob().job);
    expect(paced).toEqual([
      { phase: 'reserve', phoneNumberId: 'pn-1', rate: 80 },
      { phase: 'send', phoneNumberId: 'pn-1', rate: 80, maxWaitMs: 1500 },
    ]);
    expect(sends).toHaveLength(1);
  });

  it('sends with the permit its job was let go with (its send already counted), and gives it back when it ends without sending', async () => {
    const sent = setup({ reserve: { go: true, permit: permit() } });
    await sent.handler.handle(fakeJob().job);
    expect(sent.paced[1]).toEqual({ phase: 'send', phoneNumberId: 'pn-1', rate: 80, maxWaitMs: 1500, permit: expect.objectContaining({ id: 'r:job-1' }) });
    expect(sent.permitsBack).toEqual([]);

    const skipped = setup({ reserve: { go: true, permit: permit() }, claim: () => null });
    await expect(skipped.handler.handle(fakeJob().job)).resolves.toMatch(/^skipped/);
    expect(skipped.permitsBack).toEqual([expect.objectContaining({ id: 'r:job-1' })]);

    const deleted = setup({ reserve: { go: true, permit: permit() }, template: null });
    await expect(deleted.handler.handle(fakeJob().job)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(deleted.permitsBack).toEqual([expect.objectContaining({ id: 'r:job-1' })]);
  });

  it('moves the job to delayed until its slot without claiming the message when its slot is ahead (DelayedError)', async () => {
    const { handler, claimed, sends, paced } = setup({ reserve: { go: false, waitMs: 700 } });
    expect(await handleDelayed(handler)).toBeGreaterThanOrEqual(700);
    expect(claimed).toEqual([]);
    expect(paced.map((p) => p.phase)).toEqual(['reserve']);
    expect(sends).toEqual([]);
  });

  it("un-counts its claim and moves to delayed without sending when the number's second is full at the send (DelayedError)", async () => {
    const { handler, claimed, released, sends, errors, sentRows } = setup({ secondFullMs: 300 });
    expect(await handleDelayed(handler)).toBeGreaterThanOrEqual(300);
    expect(claimed).toHaveLength(1);
    expect(released).toEqual(['m1']);
    expect(sends).toEqual([]);
    expect(errors).toEqual([]);
    expect(sentRows).toEqual([]);
  });

  it('still moves to delayed when Postgres cannot take the claim back (that attempt stays counted)', async () => {
    const { handler, released } = setup({ secondFullMs: 300, releaseError: new DatabaseUnavailableError(new Error('timeout exceeded when trying to connect')) });
    await handleDelayed(handler);
    expect(released).toEqual([]);
  });

  describe('campaign messages (at most once)', () => {
    const campaignJob = () => fakeJob(0, 3, { campaignId: 'c1' });

    it('are claimed at most once, and sent like a trigger while their campaign runs', async () => {
      const { handler, claimedOnce, sentRows } = setup();
      await expect(handler.handle(campaignJob().job)).resolves.toBe('wamid.1');
      expect(claimedOnce).toEqual([true]);
      expect(sentRows).toEqual([{ id: 'm1', providerMessageId: 'wamid.1' }]);
    });

    it('a claim that finds the message mid-attempt (its worker died) fails it as outcome unknown and does not send', async () => {
      const { handler, sends, unknown, published } = setup({ claim: () => null });
      await expect(handler.handle(campaignJob().job)).resolves.toMatch(/^failed: a worker claimed it and stopped/);
      expect(unknown).toEqual(['m1']);
      expect(sends).toEqual([]);
      expect(published).toEqual([{ messageId: 'm1', status: 'failed' }]);
    });

    it("a claim that finds another run's lease holding waits for it instead of failing the message", async () => {
      const { handler, sends, unknown, published } = setup({ claim: () => ({ busyForMs: 2000 }) });
      await handleDelayed(handler, campaignJob());
      expect(unknown).toEqual([]);
      expect(sends).toEqual([]);
      expect(published).toEqual([]);
    });

    it('a claim refused because the message is final changes nothing', async () => {
      const { handler, published } = setup({ claim: () => null, midAttempt: false });
      await expect(handler.handle(campaignJob().job)).resolves.toMatch(/^skipped/);
      expect(published).toEqual([]);
    });

    it('a send that timed out is not tried again: Meta may have it', async () => {
      const { handler, errors } = setup({ outcome: { kind: 'retry', code: 'timeout', text: 'no answer within 10000 ms' } });
      await expect(handler.handle(campaignJob().job)).rejects.toBeInstanceOf(UnrecoverableError);
      expect(errors).toEqual([['m1', 'outcome_unknown', 'no answer within 10000 ms; not sent again (campaign messages go at most once)', true]]);
    });

    it('a known transient outcome (5xx, a full second) parks the message so that its next claim may take it', async () => {
      const retry = setup({ outcome: { kind: 'retry', code: 'http_503', text: 'Service Unavailable' } });
      await handleDelayed(retry.handler, campaignJob());
      expect(retry.parked).toEqual(['m1']);
      const full = setup({ secondFullMs: 300 });
      await handleDelayed(full.handler, campaignJob());
      expect(full.parked).toEqual(['m1']);
    });

    it('wait in the delayed set while their campaign is paused or scheduled, before pacing or claiming', async () => {
      for (const campaignStatus of ['paused', 'scheduled']) {
        const { handler, claimed, paced } = setup({ campaignStatus });
        const delayMs = await handleDelayed(handler, campaignJob());
        expect(delayMs).toBeGreaterThanOrEqual(900);
        expect(claimed).toEqual([]);
        expect(paced).toEqual([]);
      }
    });

    it('are cancelled unsent when their campaign was cancelled or deleted', async () => {
      for (const campaignStatus of ['cancelled', null]) {
        const { handler, claimed, cancelled } = setup({ campaignStatus });
        await expect(handler.handle(campaignJob().job)).resolves.toBe(`skipped: campaign ${campaignStatus ?? 'deleted'}`);
        expect(cancelled).toEqual(['m1']);
        expect(claimed).toEqual([]);
      }
    });
  });
});
