import 'reflect-metadata';
import type { SecretBox } from '@platform/crypto';
import type { ChannelSender, ChannelSenderRepository } from '@platform/database';
import { GraphApiError } from './graph-api.error.js';
import type { GraphPhoneNumberClient, PhoneNumberInfo } from './graph-phone-number.client.js';
import { MessagingLimitReader } from './messaging-limit-reader.js';

const sender = {
  id: 's1',
  botId: 'b1',
  channel: 'whatsapp',
  number: '15550001111',
  phoneNumberId: 'pn1',
  accessTokenEncrypted: 'enc:tok',
  messagingLimitTier: 'TIER_250',
  messagingLimitReadAt: new Date('2026-12-01T00:00:00Z'),
} as ChannelSender;

function setup(answer: () => Promise<PhoneNumberInfo>) {
  const stored: Array<[string, string | null]> = [];
  const asked: Array<[string, string]> = [];
  const senders = {
    setMessagingLimit: async (id: string, tier: string | null) => void stored.push([id, tier]),
    listByBot: async () => [sender, { ...sender, id: 'p2', channel: 'push' }],
  } as unknown as ChannelSenderRepository;
  const graph = { check: async (pn: string, token: string) => (asked.push([pn, token]), answer()) } as unknown as GraphPhoneNumberClient;
  const secrets = { decrypt: (v: string) => v.replace('enc:', '') } as unknown as SecretBox;
  return { reader: new MessagingLimitReader(senders, graph, secrets), stored, asked };
}

describe('MessagingLimitReader', () => {
  it("stores Meta's current field, else the deprecated one", async () => {
    const current = setup(async () => ({ id: 'pn1', whatsapp_business_manager_messaging_limit: 'TIER_2K', messaging_limit_tier: 'TIER_1K' }));
    expect(await current.reader.refresh(sender)).toMatchObject({ tier: 'TIER_2K', fresh: true });
    expect(current.asked).toEqual([['pn1', 'tok']]);
    expect(current.stored).toEqual([['s1', 'TIER_2K']]);
    const older = setup(async () => ({ id: 'pn1', messaging_limit_tier: 'TIER_1K' }));
    expect((await older.reader.refresh(sender)).tier).toBe('TIER_1K');
  });

  it('answers the stored tier with the reason when Meta cannot be asked, storing nothing', async () => {
    const { reader, stored } = setup(() => Promise.reject(new GraphApiError(0, 'no answer within 5000 ms')));
    expect(await reader.refresh(sender)).toEqual({ tier: 'TIER_250', readAt: sender.messagingLimitReadAt, fresh: false, error: expect.stringContaining('no answer') });
    expect(stored).toEqual([]);
  });

  it("refreshes only the bot's WhatsApp senders", async () => {
    const { reader, asked } = setup(async () => ({ id: 'pn1' }));
    await reader.refreshBot('b1');
    expect(asked).toHaveLength(1);
  });
});
