import { classifyReadReceiptAnswer, readReceiptBody } from './read-receipt.js';

describe('WhatsApp read receipt', () => {
  it("marks the message read and asks for Meta's typing indicator", () => {
    expect(readReceiptBody('wamid.A1')).toEqual({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.A1', typing_indicator: { type: 'text' } });
    expect(readReceiptBody('wamid.A1', false)).toEqual({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.A1' });
  });

  it("takes Meta's success answer only; anything else is a refusal with its code", () => {
    expect(classifyReadReceiptAnswer(200, { success: true })).toEqual({ ok: true });
    expect(classifyReadReceiptAnswer(200, {})).toEqual({ ok: false, code: 'http_200', text: 'HTTP 200' });
    expect(classifyReadReceiptAnswer(400, { error: { code: 100, message: 'Invalid parameter' } })).toEqual({ ok: false, code: '100', text: 'Invalid parameter' });
  });
});
