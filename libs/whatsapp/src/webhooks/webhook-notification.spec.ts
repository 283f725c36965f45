import { WebhookEnvelopeError } from './webhook-envelope.error.js';
import { readWebhookNotification } from './webhook-notification.js';

const value = (v: object) => ({ messaging_product: 'whatsapp', metadata: { phone_number_id: '1065' }, ...v });
const change = (v: object, field = 'messages') => ({ field, value: value(v) });
const body = (...changes: unknown[]) => ({ object: 'whatsapp_business_account', entry: [{ id: 'waba', changes }] });

describe('readWebhookNotification', () => {
  it('reads the statuses and the messages of every change and entry, in order, with what it skipped', () => {
    const read = readWebhookNotification({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'waba-1',
          changes: [
            change({
              statuses: [
                { id: 'wamid.A', status: 'sent', timestamp: '1' },
                { id: 'wamid.B', status: 'deleted' },
              ],
            }),
          ],
        },
        {
          id: 'waba-2',
          changes: [
            change({
              messages: [
                { from: '919876543210', id: 'wamid.in', timestamp: '2', type: 'text', text: { body: 'hi' } },
                { from: '919876543210', id: 'x', type: 'reaction' },
              ],
            }),
            change({ statuses: [{ id: 'wamid.C', status: 'read', timestamp: '3' }] }),
            change({ statuses: [{ id: 'wamid.D', status: 'read', timestamp: '3' }] }, 'account_update'),
          ],
        },
      ],
    });
    expect(read.statuses.map((s) => [s.providerMessageId, s.status])).toEqual([
      ['wamid.A', 'sent'],
      ['wamid.C', 'read'],
    ]);
    expect(read.messages.map((m) => [m.wamid, m.phoneNumberId, m.content])).toEqual([['wamid.in', '1065', { text: 'hi' }]]);
    expect(read.skipped).toEqual({ statuses: 1, messages: 1 });
  });

  it('brings nothing for another object, or a change without statuses or messages', () => {
    const none = { statuses: [], messages: [], skipped: { statuses: 0, messages: 0 } };
    expect(readWebhookNotification({ object: 'page', entry: 'x' })).toEqual(none);
    expect(readWebhookNotification(body(change({})))).toEqual(none);
    expect(readWebhookNotification({ object: 'whatsapp_business_account', entry: [] })).toEqual(none);
  });

  it.each([
    [null, 'Request body must be a JSON object'],
    [[], 'Request body must be a JSON object'],
    ['x', 'Request body must be a JSON object'],
    [{ object: 'whatsapp_business_account' }, 'entry must be an array'],
    [{ object: 'whatsapp_business_account', entry: 'x' }, 'entry must be an array'],
    [{ object: 'whatsapp_business_account', entry: [7] }, 'entry[0] must be a JSON object'],
    [{ object: 'whatsapp_business_account', entry: [{ id: 'waba' }] }, 'entry[0].changes must be an array'],
    [body(change({}), null), 'entry[0].changes[1] must be a JSON object'],
    [body({ field: 'messages', value: 'x' }), 'entry[0].changes[0].value must be a JSON object'],
    [body(change({ statuses: {} })), 'entry[0].changes[0].value.statuses must be an array'],
    [body(change({ messages: 'hi' })), 'entry[0].changes[0].value.messages must be an array'],
  ])('refuses an envelope of another shape, naming the part: %j', (notification, message) => {
    expect(() => readWebhookNotification(notification)).toThrow(new WebhookEnvelopeError(message));
    expect(() => readWebhookNotification(notification)).toThrow(WebhookEnvelopeError);
  });
});
