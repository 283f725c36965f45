import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { ConversationQueueNames } from '@platform/contracts';
import type { SecretBox } from '@platform/crypto';
import type { ChannelSenderRepository, ConversationRepository } from '@platform/database';
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

/** `full`: the pacer finds no second with room within the wait the handler allows. */
function setup(full = false) {
  const events: string[] = [];
  const failed: Array<[string, string, boolean]> = [];
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
    sendCounted: async <T>(phoneNumberId: string, rate: number, send: () => Promise<T>, maxWaitMs = 0): Promise<CountedSend<T>> => {
      if (full) {
        events.push(`no room for ${phoneNumberId} at ${rate}/s within ${maxWaitMs} ms`);
        return { sent: false, waitMs: 400 };
      }
      events.push(`counted for ${phoneNumberId} at ${rate}/s, waiting up to ${maxWaitMs} ms`);
      return { sent: true, value: await send() };
    },
  } as unknown as SenderPacer;
  const handler = new ConversationReplyHandler(conversations, senders, box, whatsapp, pacer);
  const job = { data: { messageId: 'r1' }, attemptsMade: 0, opts: { attempts: 3 } } as unknown as ReplyJob;
  return { handler, job, events, failed };
}

describe('ConversationReplyHandler', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it("counts each message of a reply against its sender number's rate right before sending it, waiting up to 10 s for room", async () => {
    const { handler, job, events } = setup();
    await expect(handler.handle(job)).resolves.toBe('sent');
    expect(events).toEqual([
      'counted for pn-1 at 5/s, waiting up to 10000 ms',
      'sent 1 through pn-1 with plain:sealed',
      'counted for pn-1 at 5/s, waiting up to 10000 ms',
      'sent 2 through pn-1 with plain:sealed',
      'marked r1 sent as wamid.2',
    ]);
  });

  it('gives up the attempt (retried by BullMQ, not final) when the rate leaves no room within that wait', async () => {
    const { handler, job, events, failed } = setup(true);
    await expect(handler.handle(job)).rejects.toThrow(/no room for this reply/);
    expect(events).toEqual(['no room for pn-1 at 5/s within 10000 ms']);
    expect(failed).toEqual([['r1', 'paced', false]]);
  });
});
