import { describe, expect, it } from '@jest/globals';
import type { ConversationMessageView } from '@platform/contracts/views';
import { messageText, senderLabel } from './display.js';

const inbound = (type: string, content: object): ConversationMessageView => ({
  id: 'm',
  conversationId: 'c',
  direction: 'inbound',
  type,
  content,
  status: null,
  createdAt: '2026-12-23T10:00:00Z',
});

describe('messageText: a message of the inbox as one line', () => {
  it("names a user's file by its kind and name, not by its message type", () => {
    const web = inbound('attachment', { attachment: { url: 'https://x/f/1', mimeType: 'application/pdf', filename: 'invoice-42.pdf', size: 120_000 } });
    expect(messageText(web)).toBe('PDF document: invoice-42.pdf (117 KB)');
    expect(messageText(inbound('attachment', { attachment: { url: 'https://x/f/2', mimeType: 'image/png', filename: 'crack.png', size: 900 } }))).toBe('Picture: crack.png (900 B)');
    // WhatsApp: Meta's media reference; a caption is also the message's text and goes with the file.
    const doc = inbound('media', { media: { kind: 'document', id: '77', mimeType: 'application/pdf', filename: 'contract.pdf', caption: 'signed' }, text: 'signed' });
    expect(messageText(doc)).toBe('Document: contract.pdf, caption: signed');
    expect(messageText(inbound('media', { media: { kind: 'image', id: '78' } }))).toBe('Picture');
  });

  it('keeps text, images and cards as they were', () => {
    expect(messageText(inbound('text', { text: 'hello' }))).toBe('hello');
    expect(messageText({ ...inbound('image', { image: { url: 'https://x/a.jpg', caption: 'parcel' } }), direction: 'outbound' })).toBe('Image: parcel');
    expect(messageText({ ...inbound('carousel', { cards: [{}, {}] }), direction: 'outbound' })).toBe('2 cards');
    expect(messageText(inbound('location', {}))).toBe('location');
  });

  it('names who wrote a message: the user, the bot, or the agent by e-mail', () => {
    expect(senderLabel({ kind: 'user' })).toBe('User');
    expect(senderLabel({ kind: 'bot' })).toBe('Bot');
    expect(senderLabel({ kind: 'agent', userId: 'u', email: 'ana@example.com' })).toBe('Agent ana@example.com');
    expect(senderLabel({ kind: 'agent', userId: 'u', email: null })).toBe('Agent (a former member)');
  });
});
