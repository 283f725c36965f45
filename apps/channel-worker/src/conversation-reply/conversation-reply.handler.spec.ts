import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { ConversationQueueNames } from '@platform/contracts';
import type { SecretBox } from '@platform/crypto';
import type { ChannelSenderRepository, ConversationRepository } from '@platform/database';
import type { QueueJob } from '@platform/queue';
import type { CountedSend, SenderPacer } from '../pacing/sender-pacer.js';
import type { SendOutcome } from '../whatsapp/cloud-api-answer.js';
import type { WhatsAppCloudClient } from '../whatsapp/whatsapp-cloud.client.js';
import { ConversationReplyHandler } from './conversation-reply.handler.js';

type ReplyJob = QueueJob<typeof ConversationQueueNames.conversationReply>;

// Two cards without images: sent as two reply-button messages, each counted against the number's rate.
const reply = {
  id: 'r1',
  type: 'carousel',
  content: { cards: [1, 2].map((n) => ({ title: `Card ${n}`, buttons: [{ title: `Pick ${n}`, payload: `p${n}` }] })) },
  conversation: { senderId: 's1', userId: '919876543210' },
};

/** `full`: how many times the pacer finds the second full before it lets a send through, and the wait it asks for. */
function setup(full: { times: number; waitMs: number } = { times: 0, waitMs: 0 }) {
  const events: string[] = [];
  const failed: Array<[string, string, boolean]> = [];
  let refusals = full.times;
  const conversations = {
    claimReply: async () => reply,
    markSent: async (id: string, wamid: string) => void events.push(`marked ${id} sent as ${wamid}`),
    markAttemptFailed: async (id: string, code: string, _text: string, final: boolean) => void failed.push([id, code, final]),
  } as unknown as ConversationRepository;
  const senders = { findById: async () => ({ id: 's1', phoneNumberId: 'pn-1', accessTokenEncrypted: 'sealed', throughput: 5 }) } as unknown as ChannelSenderRepository;
  const box = { decrypt: (s: string) => `plain:${s}` } as unknown as SecretBox;
  let n = 0;
  const whatsapp = {
    send: async (phoneNumberId: string, token: string): Promise<SendOutcome> => {
      events.push(`sent ${++n} through ${phoneNumberId} with ${token}`);
      return { kind: 'sent', providerMessageId: `wamid.${n}` };
    },
  } as unknown as WhatsAppCloudClient;
  const pacer = {
    sendCounted: async <T>(phoneNumberId: string, rate: number, send: () => Promise<T>): Promise<CountedSend<T>> => {
      if (refusals > 0) {
        refusals--;
        events.push(`second full for ${phoneNumberId} at ${rate}/s`);
        return { sent: false, waitMs: full.waitMs };
      }
      events.push(`counted for ${phoneNumberId} at ${rate}/s`);
      return { sent: true, value: await send() };
    },
  } as unknown as SenderPacer;
  const handler = new ConversationReplyHandler(conversations, senders, box, whatsapp, pacer);
  const job = { data: { messageId: 'r1' }, attemptsMade: 0, opts: { attempts: 3 } } as unknown as ReplyJob;
  return { handler, job, events, failed };
}

describe('ConversationReplyHandler', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it("counts each message of a reply against its sender number's rate right before sending it", async () => {
    const { handler, job, events } = setup();
    await expect(handler.handle(job)).resolves.toBe('sent');
    expect(events).toEqual([
      'counted for pn-1 at 5/s',
      'sent 1 through pn-1 with plain:sealed',
      'counted for pn-1 at 5/s',
      'sent 2 through pn-1 with plain:sealed',
      'marked r1 sent as wamid.2',
    ]);
  });

  it('waits for the next second when the current one is full, then sends', async () => {
    const { handler, job, events, failed } = setup({ times: 2, waitMs: 5 });
    await expect(handler.handle(job)).resolves.toBe('sent');
    expect(events.slice(0, 4)).toEqual(['second full for pn-1 at 5/s', 'second full for pn-1 at 5/s', 'counted for pn-1 at 5/s', 'sent 1 through pn-1 with plain:sealed']);
    expect(failed).toEqual([]);
  });

  it('gives up the attempt (retried by BullMQ, not final) when the rate leaves no room within the wait it allows', async () => {
    const { handler, job, events, failed } = setup({ times: 1, waitMs: 60_000 });
    await expect(handler.handle(job)).rejects.toThrow(/no room for this reply/);
    expect(events).toEqual(['second full for pn-1 at 5/s']);
    expect(failed).toEqual([['r1', 'paced', false]]);
  });
});
