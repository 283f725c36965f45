import type { SecretBox } from '@platform/crypto';
import type { ConversationRepository } from '@platform/database';
import type { ReadReceiptOutcome, WhatsAppCloudClient } from '@platform/whatsapp';
import { ReadReceiptHandler } from './read-receipt.handler.js';

function setup(row: unknown, outcome: ReadReceiptOutcome = { ok: true }) {
  const calls: unknown[][] = [];
  const conversations = { findInboundWithSender: async () => row } as unknown as ConversationRepository;
  const box = { decrypt: (v: string) => `plain:${v}` } as unknown as SecretBox;
  const whatsapp = { markRead: async (...args: unknown[]) => (calls.push(args), outcome) } as unknown as WhatsAppCloudClient;
  return { handler: new ReadReceiptHandler(conversations, box, whatsapp), calls };
}

const row = { providerMessageId: 'wamid.U1', conversation: { sender: { phoneNumberId: '1055', accessTokenEncrypted: 'sealed' } } };

describe('ReadReceiptHandler', () => {
  it("marks the user's message read from the number they wrote to, with its token unsealed", async () => {
    const { handler, calls } = setup(row);
    expect(await handler.handle('m1')).toBe('read');
    expect(calls).toEqual([['1055', 'plain:sealed', 'wamid.U1']]);
  });

  it('skips a message erased meanwhile or whose number was removed, calling Meta for neither', async () => {
    for (const gone of [null, { ...row, conversation: { sender: null } }]) {
      const { handler, calls } = setup(gone);
      expect(await handler.handle('m1')).toBe('skipped');
      expect(calls).toEqual([]);
    }
  });

  it("drops Meta's refusal without throwing (no retry for a courtesy)", async () => {
    const { handler } = setup(row, { ok: false, code: '100', text: 'Invalid parameter' });
    expect(await handler.handle('m1')).toBe('refused');
  });
});
