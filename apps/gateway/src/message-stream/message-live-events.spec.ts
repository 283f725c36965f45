import { MessageStatusChange, lifecycleStreamFields } from '@platform/contracts';
import { lifecycleEvent, queuedEvent, streamIdTime } from './message-live-events.js';

describe('message live events', () => {
  const change: MessageStatusChange = {
    messageId: 'm-1',
    botId: 'b-1',
    status: 'failed',
    at: '2026-11-25T10:00:00.000Z',
    error: { code: '131026', text: 'Message undeliverable' },
    customPayload: null,
    postbackUrl: null,
  };

  it('reads a lifecycle entry as the publisher writes it, with the error of a failed message only', () => {
    expect(lifecycleEvent(lifecycleStreamFields(change))).toEqual({
      botId: 'b-1',
      event: { msgId: 'm-1', status: 'failed', at: change.at, error: { code: '131026', text: 'Message undeliverable' } },
    });
    expect(lifecycleEvent(lifecycleStreamFields({ ...change, status: 'read', error: null }))).toEqual({ botId: 'b-1', event: { msgId: 'm-1', status: 'read', at: change.at } });
  });

  it('ignores entries that are not status changes', () => {
    expect(lifecycleEvent(['messageId', 'm-1', 'botId', 'b-1', 'status', 'exploded', 'at', change.at])).toBeNull();
    expect(lifecycleEvent(['status', 'sent'])).toBeNull();
  });

  it('makes a queued event from a job, timed by the stream entry id, and skips a job that is gone or not a carousel', () => {
    const data = JSON.stringify({ messageId: 'm-2', botId: 'b-2', recipient: '919876543210', cards: [] });
    expect(queuedEvent('1764064800000-3', data)).toEqual({ botId: 'b-2', event: { msgId: 'm-2', status: 'queued', at: '2025-11-25T10:00:00.000Z', recipient: '919876543210' } });
    expect(queuedEvent('1-0', null)).toBeNull();
    expect(queuedEvent('1-0', '{not json')).toBeNull();
    expect(queuedEvent('1-0', JSON.stringify({ messageId: 'm-3' }))).toBeNull();
    expect(streamIdTime('0-1')).toBe('1970-01-01T00:00:00.000Z');
  });
});
