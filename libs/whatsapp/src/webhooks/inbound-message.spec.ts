import { readWebhookNotification } from './webhook-notification.js';

const readInboundMessages = (body: unknown) => {
  const { messages, skipped } = readWebhookNotification(body);
  return { messages, skipped: skipped.messages };
};

const notification = (messages: unknown[]) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: 'waba', changes: [{ field: 'messages', value: { metadata: { phone_number_id: '1065' }, messages } }] }],
});
const base = { from: '919876543210', timestamp: '1764000000' };

describe('readInboundMessage (through readWebhookNotification)', () => {
  it('reads text, button, interactive, media and location messages', () => {
    const { messages, skipped } = readInboundMessages(
      notification([
        { ...base, id: 'w1', type: 'text', text: { body: 'hi' } },
        { ...base, id: 'w2', type: 'button', button: { text: 'Pick 2', payload: 'card-2' } },
        { ...base, id: 'w3', type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } } },
        { ...base, id: 'w4', type: 'image', image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'look' } },
        { ...base, id: 'w5', type: 'location', location: { latitude: 12.9, longitude: 77.6, name: 'Office' } },
        { ...base, id: 'w6', type: 'reaction', reaction: { emoji: '👍' } },
        { id: 'w7', type: 'text', text: { body: 'no sender' } },
      ]),
    );
    expect(skipped).toBe(2);
    expect(messages.map((m) => [m.wamid, m.type, m.content])).toEqual([
      ['w1', 'text', { text: 'hi' }],
      ['w2', 'button', { text: 'Pick 2', payload: 'card-2' }],
      ['w3', 'interactive', { text: 'Yes', payload: 'yes' }],
      ['w4', 'media', { media: { kind: 'image', id: 'media-1', mimeType: 'image/jpeg', caption: 'look' }, text: 'look' }],
      ['w5', 'location', { location: { latitude: 12.9, longitude: 77.6, name: 'Office' } }],
    ]);
    expect(messages[0]).toMatchObject({ phoneNumberId: '1065', from: '919876543210', at: new Date(1764000000 * 1000) });
  });

  it('ignores anything that is not a WhatsApp Business Account notification', () => {
    expect(readInboundMessages({ object: 'page', entry: [] }).messages).toEqual([]);
  });

  it('keeps out of the text what Postgres cannot store (NUL, unpaired UTF-16 halves), and skips ids of other characters', () => {
    const { messages, skipped } = readInboundMessages(
      notification([
        { ...base, id: 'w1', type: 'text', text: { body: 'a\u0000b\ud800c\udc00d😀' } },
        { ...base, id: 'w\u00002', type: 'text', text: { body: 'hi' } },
      ]),
    );
    expect(messages.map((m) => m.content)).toEqual([{ text: 'ab\ufffdc\ufffdd😀' }]);
    expect(skipped).toBe(1);
  });
});
