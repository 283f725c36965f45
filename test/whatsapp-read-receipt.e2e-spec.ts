import { WEBHOOK_TEST_ENV, signWebhook, whatsappNotification } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { eventually, postJson } from './sdk-support.js';

/** A user's WhatsApp message gets Meta's blue ticks and the typing indicator while the bot works on it. */
describe('WhatsApp read receipt and typing indicator', () => {
  const stack = useStack({ cloud: true, worker: true, seed: true, env: WEBHOOK_TEST_ENV });

  const notification = (from: string, wamid: string) =>
    JSON.stringify(
      whatsappNotification(
        { contacts: [{ profile: { name: 'Ada' }, wa_id: from }], messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'hello' } }] },
        { phoneNumberId: stack.seed.phoneNumberId },
      ),
    );

  it("marks the user's message read with the typing indicator, once although Meta sends the message twice, through the number it was sent to", async () => {
    const body = notification('919800000001', 'wamid.READ-1');
    for (let i = 0; i < 2; i++) expect((await postJson(`${stack.url}/webhooks/whatsapp`, body, { 'x-hub-signature-256': signWebhook(body) })).status).toBe(200);
    const receipt = await eventually(() => stack.cloud.readReceipts.find((r) => r.messageId === 'wamid.READ-1'), 10_000, 'read receipt at the Cloud API');
    expect(receipt).toEqual({ phoneNumberId: stack.seed.phoneNumberId, messageId: 'wamid.READ-1', typing: true });
    const request = stack.cloud.requests.find((r) => (r.body as { message_id?: string }).message_id === 'wamid.READ-1')!;
    expect(request.body).toEqual({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.READ-1', typing_indicator: { type: 'text' } });
    expect(request.headers.authorization).toMatch(/^Bearer \S+$/);
    await new Promise((r) => setTimeout(r, 700)); // time for a (wrong) second receipt
    expect(stack.cloud.readReceipts.filter((r) => r.messageId === 'wamid.READ-1')).toHaveLength(1);
    expect(stack.cloud.messages.some((m) => (m.body as { status?: string }).status === 'read')).toBe(false); // a receipt is not a message
  });

  it('a message to a number no bot has gets no receipt', async () => {
    const body = JSON.stringify(whatsappNotification({ messages: [{ from: '919800000002', id: 'wamid.READ-2', timestamp: '1', type: 'text', text: { body: 'x' } }] }, { phoneNumberId: '999000999' }));
    expect((await postJson(`${stack.url}/webhooks/whatsapp`, body, { 'x-hub-signature-256': signWebhook(body) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    expect(stack.cloud.readReceipts.some((r) => r.messageId === 'wamid.READ-2')).toBe(false);
  });
});
