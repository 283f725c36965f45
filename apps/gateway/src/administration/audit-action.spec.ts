import { auditActionOf, auditTargetOf } from './audit-action.js';

describe('audit action names', () => {
  it.each([
    ['POST', '/v1/bots/:botId/api-keys', 'api-keys.create'],
    ['DELETE', '/v1/bots/:botId/api-keys/:keyId', 'api-keys.delete'],
    ['POST', '/v1/bots/:botId/whatsapp/senders', 'whatsapp.senders.create'],
    ['PATCH', '/v1/bots/:botId/whatsapp/senders/:senderId', 'whatsapp.senders.update'],
    ['POST', '/v1/bots/:botId/whatsapp/templates/sync', 'whatsapp.templates.sync'],
    ['PUT', '/v1/bots/:botId/members', 'members.update'],
    ['POST', '/api/data/vault/saveBotConfig', 'data.vault.saveBotConfig'],
    ['POST', '/v1/bots/:botId/definition/publish', 'definition.publish'],
  ])('%s %s is %s', (method, pattern, action) => {
    expect(auditActionOf(method, pattern)).toBe(action);
  });

  it('names the ids a route took besides the bot, and none when there are none', () => {
    expect(auditTargetOf({ botId: 'b', keyId: 'k1' })).toBe('keyId=k1');
    expect(auditTargetOf({ botId: 'b' })).toBeNull();
    expect(auditTargetOf(undefined)).toBeNull();
  });
});
