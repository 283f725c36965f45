import { readWebhookNotification } from './webhook-notification.js';

const notification = (statuses: unknown[], field = 'messages', object = 'whatsapp_business_account') => ({
  object,
  entry: [{ id: '102290129340398', changes: [{ field, value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1065' }, statuses } }] }],
});

const readStatusEvents = (body: unknown) => {
  const { statuses: events, skipped } = readWebhookNotification(body);
  return { events, skipped: skipped.statuses };
};

describe('readStatusEvent (through readWebhookNotification)', () => {
  it("reads each status's id, kind, time and, for failures, Meta's code and title", () => {
    const { events, skipped } = readStatusEvents(
      notification([
        { id: 'wamid.A', status: 'delivered', timestamp: '1750000000', recipient_id: '919876543210' },
        { id: 'wamid.B', status: 'failed', timestamp: '1750000001', errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable.' }] },
      ]),
    );
    expect(skipped).toBe(0);
    expect(events).toEqual([
      { providerMessageId: 'wamid.A', status: 'delivered', at: new Date(1750000000_000), error: null },
      { providerMessageId: 'wamid.B', status: 'failed', at: new Date(1750000001_000), error: { code: '131026', text: 'Message undeliverable' } },
    ]);
  });

  it('skips statuses without a usable id or of another kind, and counts them', () => {
    const { events, skipped } = readStatusEvents(
      notification([{ status: 'read' }, { id: 'wamid.C', status: 'deleted' }, 'x', { id: 'wamid.\u0000', status: 'read' }, { id: 'wamid.D', status: 'read' }]),
    );
    expect(events.map((e) => e.providerMessageId)).toEqual(['wamid.D']);
    expect(skipped).toBe(4);
  });

  it('ignores other objects and other fields', () => {
    const status = { id: 'wamid.A', status: 'read', timestamp: '1' };
    for (const body of [notification([status], 'account_update'), notification([status], 'messages', 'page')]) {
      expect(readStatusEvents(body)).toEqual({ events: [], skipped: 0 });
    }
  });

  it('takes a failure without error details, and a status without a usable timestamp as of now', () => {
    const before = Date.now();
    const { events } = readStatusEvents(notification([{ id: 'wamid.E', status: 'failed', timestamp: 'soon' }]));
    expect(events).toEqual([expect.objectContaining({ error: { code: null, text: 'Meta reported the message failed' } })]);
    expect(events[0].at.getTime()).toBeGreaterThanOrEqual(before);
  });
});
