import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { ConversationRepository } from '@platform/database';
import type { InboundWhatsAppMessage } from '@platform/whatsapp';
import type { ConversationService } from '../conversations/conversation.service.js';
import { InboundMessagesService } from './inbound-messages.service.js';

const AT = new Date('2026-12-16T10:00:00Z');

const message = (wamid: string, phoneNumberId = '111'): InboundWhatsAppMessage =>
  ({ phoneNumberId, from: '4915112345678', wamid, at: AT, type: 'text', content: { text: `hi ${wamid}` } }) as InboundWhatsAppMessage;

/** Senders of two numbers (111: bot-1, 222: bot-2); receive() answers created false for a wamid seen before. */
function setup() {
  const seen = new Set<string>();
  const order: string[] = [];
  const receive = jest.fn(async (inbound: { providerMessageId: string }) => {
    order.push(inbound.providerMessageId);
    const created = !seen.has(inbound.providerMessageId);
    seen.add(inbound.providerMessageId);
    return { created };
  });
  const senders: Record<string, Array<{ id: string; botId: string }>> = { '111': [{ id: 'sender-1', botId: 'bot-1' }], '222': [{ id: 'sender-2', botId: 'bot-2' }] };
  const repo = { findSendersByPhoneNumberId: async (id: string) => senders[id] ?? [] } as unknown as ConversationRepository;
  const service = new InboundMessagesService({ receive } as unknown as ConversationService, repo);
  return { service, receive, order };
}

describe('InboundMessagesService', () => {
  afterEach(() => jest.restoreAllMocks());

  it("records each message for its number's bot, in the notification's order", async () => {
    const { service, receive, order } = setup();
    await expect(service.record([message('wamid.A'), message('wamid.B', '222'), message('wamid.C')])).resolves.toBe(3);
    expect(order).toEqual(['wamid.A', 'wamid.B', 'wamid.C']);
    expect(receive).toHaveBeenNthCalledWith(1, {
      botId: 'bot-1',
      channel: 'whatsapp',
      userId: '4915112345678',
      senderId: 'sender-1',
      type: 'text',
      content: { text: 'hi wamid.A' },
      providerMessageId: 'wamid.A',
      at: AT,
    });
    expect(receive).toHaveBeenNthCalledWith(2, expect.objectContaining({ botId: 'bot-2', senderId: 'sender-2' }));
  });

  it('counts a redelivered message once', async () => {
    const { service } = setup();
    await expect(service.record([message('wamid.A')])).resolves.toBe(1);
    await expect(service.record([message('wamid.A'), message('wamid.B')])).resolves.toBe(1);
  });

  it('skips, with a warning, a message to a number no bot has, and records the rest', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { service, order } = setup();
    await expect(service.record([message('wamid.X', '999'), message('wamid.A')])).resolves.toBe(1);
    expect(order).toEqual(['wamid.A']);
    expect(warn).toHaveBeenCalledWith('message wamid.X to phone-number id 999 ignored: no bot has that sender');
  });

  it('records nothing for an empty notification', async () => {
    const { service, receive } = setup();
    await expect(service.record([])).resolves.toBe(0);
    expect(receive).not.toHaveBeenCalled();
  });
});
