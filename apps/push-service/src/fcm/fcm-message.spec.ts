import 'reflect-metadata';
import { fcmMessageTemplate, renderFcmBody } from './fcm-message.js';

describe('fcmMessageTemplate', () => {
  const content = { botId: 'bot-1', title: 'Hi "there"', body: 'b', journeySlug: 'welcome', data: { a: '1' }, priority: 'high' as const };

  it('builds the FCM v1 body with botId, journeySlug and the token spliced in (escaped)', () => {
    const body = JSON.parse(renderFcmBody(fcmMessageTemplate(content, 1_000_000)('tok"1')));
    expect(body).toEqual({
      message: {
        token: 'tok"1',
        notification: { title: 'Hi "there"', body: 'b' },
        data: { a: '1', botId: 'bot-1', journeySlug: 'welcome' },
        android: { priority: 'HIGH' },
        apns: { headers: { 'apns-priority': '10' } },
        webpush: { headers: { Urgency: 'high' } },
      },
    });
  });

  it('maps ttl and normal priority to every platform', () => {
    const body = JSON.parse(renderFcmBody(fcmMessageTemplate({ ...content, priority: 'normal', ttlSeconds: 60, journeySlug: null }, 1_000_000)('t')));
    expect(body.message.data).toEqual({ a: '1', botId: 'bot-1' });
    expect(body.message.android).toEqual({ priority: 'NORMAL', ttl: '60s' });
    expect(body.message.apns.headers).toEqual({ 'apns-priority': '5', 'apns-expiration': '1060' });
    expect(body.message.webpush.headers).toEqual({ Urgency: 'normal', TTL: '60' });
  });
});
