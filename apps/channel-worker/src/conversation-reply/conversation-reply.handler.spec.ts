import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError } from 'bullmq';
import type { Clock } from '@platform/common';
import type { JobLockEnv, WhatsAppEnv, WhatsAppRetryEnv } from '@platform/config';
import type { ConversationQueueNames } from '@platform/contracts';
import type { SecretBox } from '@platform/crypto';
import { DatabaseUnavailableError, type ChannelSenderRepository, type ConversationRepository } from '@platform/database';
import type { QueueJob } from '@platform/queue';
import { ConversationReplyHandler } from './conversation-reply.handler.js';
import type { CountedSend, SendOutcome, SenderPacer, WhatsAppCloudClient } from '@platform/whatsapp';

type ReplyJob = QueueJob<typeof ConversationQueueNames.conversationReply>;

// Two cards without images: sent as two reply-button messages, each counted against the number's rate.
const reply = {
  id: 'r1',
  type: 'carousel',
  content: { cards: [1, 2].map((n) => ({ title: `Card ${n}`, buttons: [{ title: `Pick ${n}`, payload: `p${n}` }] })) },
  conversation: { senderId: 's1', userId: '919876543210' },
};

const GIVEN_AT = Date.parse('2026-01-02T03:04:05Z');

interface Options {
  /** The pacer finds no second with room within the wait the handler allows. */
  full?: boolean;
  /** Answers of the Cloud API in order; past them every send is accepted. */
  outcomes?: SendOutcome[];
  /** Thrown by the first recordParts that has a part to record. */
  recordError?: unknown;
  /** What the handler's clock reads (default: a minute after the reply was given). */
  now?: number;
  /** Another run's lease on the reply holds for this long: the claim finds it busy. */
  busyForMs?: number;
}

function setup(o: Options = {}) {
  const events: string[] = [];
  const failed: Array<[string, string, string, boolean]> = [];
  const outcomes = [...(o.outcomes ?? [])];
  let recordError = o.recordError;
  const conversations = {
    claimReply: async (id: string, leaseMs: number) => {
      events.push(`claimed ${id} for ${leaseMs} ms`);
      return o.busyForMs !== undefined ? { kind: 'busy', forMs: o.busyForMs } : { kind: 'claimed', message: reply };
    },
    extendClaim: async (id: string, leaseMs: number) => void events.push(`extended ${id} for ${leaseMs} ms`),
    recordParts: async (id: string, wamids: string[]) => {
      if (wamids.length === 0) return;
      const err = recordError;
      recordError = undefined;
      if (err) throw err;
      events.push(`recorded ${id} parts ${wamids.join(',')}`);
    },
    markSent: async (id: string, wamid: string) => void events.push(`marked ${id} sent as ${wamid}`),
    markAttemptFailed: async (id: string, code: string, text: string, final: boolean) => void failed.push([id, code, text, final]),
  } as unknown as ConversationRepository;
  const senders = { findById: async () => ({ id: 's1', phoneNumberId: 'pn-1', accessTokenEncrypted: 'sealed', throughput: 5 }) } as unknown as ChannelSenderRepository;
  const box = { decrypt: (s: string) => `plain:${s}` } as unknown as SecretBox;
  let n = 0;
  const whatsapp = {
    send: async (phoneNumberId: string, token: string, body: { interactive?: { body?: { text?: string } } }): Promise<SendOutcome> => {
      const outcome = outcomes.shift() ?? { kind: 'sent', providerMessageId: `wamid.${++n}` };
      events.push(`sent "${body.interactive?.body?.text}" through ${phoneNumberId} with ${token}: ${outcome.kind}`);
      return outcome;
    },
  } as unknown as WhatsAppCloudClient;
  const pacer = {
    sendCounted: async <T>(phoneNumberId: string, rate: number, send: () => Promise<T>, maxWaitMs = 0): Promise<CountedSend<T>> => {
      if (o.full) {
        events.push(`no room for ${phoneNumberId} at ${rate}/s within ${maxWaitMs} ms`);
        return { sent: false, waitMs: 400 };
      }
      events.push(`counted for ${phoneNumberId} at ${rate}/s, waiting up to ${maxWaitMs} ms`);
      return { sent: true, value: await send() };
    },
  } as unknown as SenderPacer;
  const env = { WHATSAPP_BACKOFF_MS: 2000, WHATSAPP_BACKOFF_MAX_MS: 300_000 } as WhatsAppRetryEnv;
  const clock = { now: () => o.now ?? GIVEN_AT + 60_000, realMs: (ms: number) => ms } as Clock;
  const handler = new ConversationReplyHandler(conversations, senders, box, whatsapp, pacer, env, { WHATSAPP_TIMEOUT_MS: 8000 } as WhatsAppEnv, { WORKER_LOCK_MS: 30_000 } as JobLockEnv, clock);
  const delays: Array<[number, string | undefined]> = [];
  const job = {
    data: { messageId: 'r1', botId: 'b1' },
    timestamp: GIVEN_AT,
    attemptsMade: 0,
    opts: { attempts: 3 },
    updateData: async (next: ReplyJob['data']) => void (job.data = next),
    moveToDelayed: async (timestamp: number, token?: string) => void delays.push([timestamp, token]),
  } as unknown as ReplyJob;
  return { handler, job, events, failed, delays };
}

describe('ConversationReplyHandler', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it("counts each message of a reply against its sender number's rate right before sending it, and records each part as it is sent", async () => {
    const { handler, job, events } = setup();
    await expect(handler.handle(job)).resolves.toBe('sent');
    // Each part's lease: the job's lock (30 s), the pacing wait (10 s), the Cloud API's timeout (8 s) and 5 s to record it.
    expect(events).toEqual([
      'claimed r1 for 53000 ms',
      'counted for pn-1 at 5/s, waiting up to 10000 ms',
      'sent "Card 1" through pn-1 with plain:sealed: sent',
      'recorded r1 parts wamid.1',
      'extended r1 for 53000 ms',
      'counted for pn-1 at 5/s, waiting up to 10000 ms',
      'sent "Card 2" through pn-1 with plain:sealed: sent',
      'recorded r1 parts wamid.1,wamid.2',
      'marked r1 sent as wamid.1',
    ]);
    expect(job.data.sentParts).toEqual(['wamid.1', 'wamid.2']);
  });

  it("waits in the delayed set until another run's lease on the reply ends, sending nothing and failing nothing", async () => {
    const { handler, job, events, failed, delays } = setup({ busyForMs: 4000 });
    const before = Date.now();
    await expect(handler.handle(job, 'lock-1')).rejects.toBeInstanceOf(DelayedError);
    expect(events).toEqual(['claimed r1 for 53000 ms']);
    expect(failed).toEqual([]);
    expect(delays).toHaveLength(1);
    expect(delays[0][0]).toBeGreaterThanOrEqual(before + 4000);
    expect(delays[0][0]).toBeLessThanOrEqual(Date.now() + 4000 + 1000);
    expect(delays[0][1]).toBe('lock-1');
  });

  it('waits in the delayed set (a transient failure, not final) when the rate leaves no room within that wait', async () => {
    const { handler, job, events, failed, delays } = setup({ full: true });
    await expect(handler.handle(job, 'lock-1')).rejects.toBeInstanceOf(DelayedError);
    expect(events).toEqual(['claimed r1 for 53000 ms', 'no room for pn-1 at 5/s within 10000 ms']);
    expect(failed).toEqual([['r1', 'paced', expect.stringMatching(/no room for this reply within 10000 ms \(message 1 of 2\)$/), false]]);
    expect(delays).toHaveLength(1);
    expect(delays[0][1]).toBe('lock-1');
  });

  it('resumes after a transient failure of a later part from that part: the parts sent before are not sent again', async () => {
    const { handler, job, events, failed, delays } = setup({
      outcomes: [
        { kind: 'sent', providerMessageId: 'wamid.a' },
        { kind: 'retry', code: 'http_503', text: 'Service Unavailable' },
      ],
    });
    await expect(handler.handle(job, 'lock-1')).rejects.toBeInstanceOf(DelayedError);
    expect(job.data.sentParts).toEqual(['wamid.a']);
    expect(failed).toEqual([['r1', 'http_503', 'Service Unavailable (message 2 of 2)', false]]);
    expect(delays).toHaveLength(1);

    events.length = 0;
    await expect(handler.handle(job, 'lock-2')).resolves.toBe('sent');
    expect(events).toEqual([
      'claimed r1 for 53000 ms',
      'recorded r1 parts wamid.a',
      'counted for pn-1 at 5/s, waiting up to 10000 ms',
      'sent "Card 2" through pn-1 with plain:sealed: sent',
      'recorded r1 parts wamid.a,wamid.1',
      'marked r1 sent as wamid.a',
    ]);
  });

  it('fails the reply when a later part is refused for good, naming that part; the parts sent before stay recorded', async () => {
    const { handler, job, events, failed } = setup({
      outcomes: [
        { kind: 'sent', providerMessageId: 'wamid.a' },
        { kind: 'failed', code: '131051', text: 'Unsupported message type' },
      ],
    });
    await expect(handler.handle(job)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(failed).toEqual([['r1', '131051', 'Unsupported message type (message 2 of 2)', true]]);
    expect(events).toContain('recorded r1 parts wamid.a');
    expect(events.some((e) => e.startsWith('marked'))).toBe(false);
  });

  it('keeps a sent part on the job before recording it: when Postgres fails at the record, the next run records it and does not send it again', async () => {
    const { handler, job, events, delays } = setup({ recordError: new DatabaseUnavailableError(new Error('ECONNREFUSED')) });
    await expect(handler.handle(job, 'lock-1')).rejects.toBeInstanceOf(DelayedError);
    expect(job.data.sentParts).toEqual(['wamid.1']);
    expect(delays).toHaveLength(1);

    events.length = 0;
    await expect(handler.handle(job, 'lock-2')).resolves.toBe('sent');
    expect(events.filter((e) => e.startsWith('sent'))).toEqual(['sent "Card 2" through pn-1 with plain:sealed: sent']);
    expect(events.at(-1)).toBe('marked r1 sent as wamid.1');
  });

  it('fails the reply as expired when the next try would come after its validity (4 h)', async () => {
    const { handler, job, failed, delays } = setup({ outcomes: [{ kind: 'retry', code: 'http_503', text: 'Service Unavailable' }], now: GIVEN_AT + 4 * 3600 * 1000 - 1000 });
    await expect(handler.handle(job)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(delays).toEqual([]);
    expect(failed).toEqual([['r1', 'expired', expect.stringMatching(/validity of 14400 s.*http_503 Service Unavailable/), true]]);
  });
});
