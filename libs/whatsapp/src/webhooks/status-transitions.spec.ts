import { ReceiptStatus, StatusEvent, foldStatusEvents, supersedes } from './status-transitions.js';

const at = (s: number) => new Date(s * 1000);
const event = (status: ReceiptStatus, seconds: number, id = 'wamid.A'): StatusEvent => ({
  providerMessageId: id,
  status,
  at: at(seconds),
  error: status === 'failed' ? { code: '131026', text: 'Message undeliverable' } : null,
});

describe('supersedes', () => {
  it.each([
    ['sent', 'processing'],
    ['delivered', 'sent'],
    ['read', 'sent'],
    ['read', 'delivered'],
    ['failed', 'sent'],
    ['delivered', 'failed'],
    ['read', 'failed'],
  ] as const)('%s replaces %s', (incoming, current) => {
    expect(supersedes(incoming, current)).toBe(true);
  });

  it.each([
    ['delivered', 'read'],
    ['sent', 'delivered'],
    ['failed', 'delivered'],
    ['failed', 'read'],
    ['read', 'read'],
    ['failed', 'failed'],
    ['queued', 'sent'],
  ] as const)('%s does not replace %s', (incoming, current) => {
    expect(supersedes(incoming, current)).toBe(false);
  });
});

describe('foldStatusEvents', () => {
  it('keeps the furthest status per message, whatever the order, with the time of each', () => {
    const forward = foldStatusEvents([event('sent', 1), event('delivered', 2), event('read', 3)]);
    const backward = foldStatusEvents([event('read', 3), event('delivered', 2), event('sent', 1)]);
    const expected = [{ providerMessageId: 'wamid.A', status: 'read', deliveredAt: at(2), readAt: at(3), errorCode: null, errorText: null }];
    expect(forward).toEqual(expected);
    expect(backward).toEqual(expected);
  });

  it('takes a read without a delivered as delivered at the same time', () => {
    expect(foldStatusEvents([event('read', 5)])).toEqual([expect.objectContaining({ status: 'read', deliveredAt: at(5), readAt: at(5) })]);
  });

  it("records a failure's code and text, unless the message was also delivered", () => {
    expect(foldStatusEvents([event('sent', 1), event('failed', 2)])).toEqual([
      { providerMessageId: 'wamid.A', status: 'failed', deliveredAt: null, readAt: null, errorCode: '131026', errorText: 'Message undeliverable' },
    ]);
    expect(foldStatusEvents([event('delivered', 1), event('failed', 2)])).toEqual([
      { providerMessageId: 'wamid.A', status: 'delivered', deliveredAt: at(1), readAt: null, errorCode: null, errorText: null },
    ]);
  });

  it('keeps the earliest time of a status reported twice, and messages apart', () => {
    const updates = foldStatusEvents([event('delivered', 9), event('delivered', 4), event('sent', 1, 'wamid.B')]);
    expect(updates).toEqual([
      expect.objectContaining({ providerMessageId: 'wamid.A', status: 'delivered', deliveredAt: at(4) }),
      expect.objectContaining({ providerMessageId: 'wamid.B', status: 'sent', deliveredAt: null }),
    ]);
  });
});
