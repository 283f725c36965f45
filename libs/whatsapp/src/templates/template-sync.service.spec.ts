import type { SecretBox } from '@platform/crypto';
import type { ChannelSender, ChannelSenderRepository, SyncedTemplateData, Template, TemplateRepository } from '@platform/database';
import type { GraphTemplatesClient } from './graph-templates.client.js';
import type { MetaTemplate } from './meta-template.js';
import { carouselTemplate } from './meta-template.spec-support.js';
import { NoBusinessAccountError } from './no-business-account.error.js';
import { TemplateSyncService } from './template-sync.service.js';

/** Templates kept in memory the way the repository keeps them in Postgres. */
class FakeTemplates {
  rows: Template[] = [];
  writes = 0;
  async listByBot(botId: string) {
    return this.rows.filter((r) => r.botId === botId).map((r) => ({ ...r }));
  }
  async createSynced(botId: string, channel: 'whatsapp', data: SyncedTemplateData) {
    this.writes++;
    const row = { id: `t${this.rows.length + 1}`, botId, channel, createdAt: new Date(), updatedAt: new Date(), ...data } as unknown as Template;
    this.rows.push(row);
    return { ...row };
  }
  async updateSynced(id: string, data: Partial<SyncedTemplateData>) {
    this.writes++;
    const row = this.rows.find((r) => r.id === id)!;
    Object.assign(row, JSON.parse(JSON.stringify(data)));
    return { ...row };
  }
}

function setUp(senders: Array<Partial<ChannelSender>>) {
  const templates = new FakeTemplates();
  let listed: MetaTemplate[] = [];
  const graph = { list: async (_waba: string, token: string) => (token === 'token-1' ? listed : []) };
  const service = new TemplateSyncService(
    { listByBot: async () => senders } as unknown as ChannelSenderRepository,
    templates as unknown as TemplateRepository,
    graph as unknown as GraphTemplatesClient,
    { decrypt: (sealed: string) => sealed.replace('sealed-', '') } as unknown as SecretBox,
  );
  return { templates, service, list: (t: MetaTemplate[]) => (listed = t) };
}

const sender = { channel: 'whatsapp', wabaId: 'waba-1', accessTokenEncrypted: 'sealed-token-1' } as const;
const plain: MetaTemplate = { id: '9', name: 'order_update', language: 'en_US', status: 'APPROVED', components: [{ type: 'BODY', text: 'x' }] };

describe('TemplateSyncService', () => {
  it('stores the carousels, counts the rest as skipped, and changes nothing when run again', async () => {
    const { templates, service, list } = setUp([sender]);
    list([carouselTemplate(), plain]);
    const first = await service.syncBot('bot-1');
    expect(first).toMatchObject({ accounts: ['waba-1'], created: 1, updated: 0, unchanged: 0, deleted: 0, skipped: 1 });
    expect(templates.rows[0]).toMatchObject({ providerTemplateId: '1209876543', wabaId: 'waba-1', cardCount: 2, bodyParameterCount: 2 });
    const writes = templates.writes;
    expect(await service.syncBot('bot-1')).toMatchObject({ created: 0, updated: 0, unchanged: 1, deleted: 0, skipped: 1 });
    expect(templates.writes).toBe(writes);
  });

  it('updates a template whose status changed, and marks one gone from the account DELETED', async () => {
    const { templates, service, list } = setUp([sender]);
    const other = { ...carouselTemplate(), id: '77', name: 'winter_carousel' };
    list([carouselTemplate(), other]);
    await service.syncBot('bot-1');
    list([{ ...carouselTemplate(), status: 'PAUSED' }]);
    const summary = await service.syncBot('bot-1');
    expect(summary).toMatchObject({ updated: 1, deleted: 1 });
    expect(templates.rows.map((r) => [r.providerName, r.status])).toEqual([
      ['summer_carousel', 'PAUSED'],
      ['winter_carousel', 'DELETED'],
    ]);
    expect(await service.syncBot('bot-1')).toMatchObject({ updated: 0, deleted: 0, unchanged: 1 });
  });

  it('adopts a template registered by hand with the same name and language, keeping its id', async () => {
    const { templates, service, list } = setUp([sender]);
    templates.rows.push({ id: 'hand', botId: 'bot-1', channel: 'whatsapp', providerName: 'summer_carousel', language: 'en_US', providerTemplateId: null, cards: null } as Template);
    list([carouselTemplate()]);
    expect(await service.syncBot('bot-1')).toMatchObject({ created: 0, updated: 1 });
    expect(templates.rows).toHaveLength(1);
    expect(templates.rows[0]).toMatchObject({ id: 'hand', providerTemplateId: '1209876543' });
  });

  it('refuses a bot none of whose senders names a WhatsApp Business Account', async () => {
    const { service } = setUp([{ ...sender, wabaId: null }]);
    await expect(service.syncBot('bot-1')).rejects.toBeInstanceOf(NoBusinessAccountError);
  });
});
