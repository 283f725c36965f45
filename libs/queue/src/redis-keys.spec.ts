import {
  apiKeyRevocationsChannel,
  consoleStreamTicketKey,
  fcmAccessTokenKey,
  fcmPaceKey,
  lifecycleStreamKey,
  messagingConsumersKey,
  oauthAuthorizationRequestKey,
  pushBatchProgressKey,
  rateLimitKey,
  sdkEventDedupeKey,
  sdkNotifyChannel,
  sdkUserKeys,
  triggerQuotaKey,
  whatsappPaceKeys,
} from './redis-keys.js';

const plain = { REDIS_URL: 'redis://localhost' };
const prefixed = { REDIS_CLUSTER_NODES: 'redis://a:7000', REDIS_KEY_PREFIX: 't1:' };

/** Cluster hash tag of a key: what is between the first `{` and the next `}` (the whole key when there is none). */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe('Redis keys', () => {
  it('keep the strings running installs have data under', () => {
    expect(triggerQuotaKey(plain, 'b1')).toBe('trigger-quota:{b1}');
    expect(whatsappPaceKeys(plain, 'pn')).toEqual({ state: 'whatsapp-pace:{pn}', held: 'whatsapp-pace:{pn}:held', sending: 'whatsapp-pace:{pn}:sending' });
    expect(sdkUserKeys(plain, 'b1', 'u1')).toEqual({ events: 'sdk:{b1:u1}:events', presence: 'sdk:{b1:u1}:presence' });
    expect(sdkNotifyChannel(plain, 'b1', 'u1')).toBe('sdk:notify:b1:u1');
    expect(sdkEventDedupeKey(plain, 'b1', 'u1', 'o1')).toBe('sdk:{b1:u1}:dedupe:o1');
    expect(apiKeyRevocationsChannel(plain)).toBe('platform:api-key-revoked');
    expect(lifecycleStreamKey(plain)).toBe('platform:message-lifecycle');
    expect(consoleStreamTicketKey(plain, 'abc')).toBe('console:stream-ticket:abc');
    expect(oauthAuthorizationRequestKey(plain, 'r1')).toBe('oauth:authreq:r1');
    expect(rateLimitKey(plain, 'login', 'abc')).toBe('rl:login:abc');
    expect(fcmAccessTokenKey(plain, 'b1', 3, 'sa@p.iam.gserviceaccount.com')).toBe('push:fcm-token:b1:3:sa@p.iam.gserviceaccount.com');
    expect(pushBatchProgressKey(plain, 'n1', 4)).toBe('push:progress:n1:4');
    expect(fcmPaceKey(plain, 'demo-push')).toBe('push:fcm-pace:{demo-push}');
    expect(messagingConsumersKey(plain, 'push-requests')).toBe('messaging:push-requests:consumers');
  });

  it('put REDIS_KEY_PREFIX before every key, outside the hash tag', () => {
    expect(triggerQuotaKey(prefixed, 'b1')).toBe('t1:trigger-quota:{b1}');
    expect(whatsappPaceKeys(prefixed, 'pn').sending).toBe('t1:whatsapp-pace:{pn}:sending');
    expect(sdkUserKeys(prefixed, 'b1', 'u1').events).toBe('t1:sdk:{b1:u1}:events');
    expect(apiKeyRevocationsChannel(prefixed)).toBe('t1:platform:api-key-revoked');
    expect(pushBatchProgressKey(prefixed, 'n1', 4)).toBe('t1:push:progress:n1:4');
  });

  it('give the keys one script touches one hash tag (one cluster slot)', () => {
    expect(new Set(Object.values(whatsappPaceKeys(prefixed, 'pn')).map(hashTag))).toEqual(new Set(['pn']));
    expect(new Set([...Object.values(sdkUserKeys(prefixed, 'b1', 'u1')), sdkEventDedupeKey(prefixed, 'b1', 'u1', 'o1')].map(hashTag))).toEqual(new Set(['b1:u1']));
    expect(hashTag(triggerQuotaKey(prefixed, 'b1'))).not.toBe(hashTag(triggerQuotaKey(prefixed, 'b2')));
  });
});
