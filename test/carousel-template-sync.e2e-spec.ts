import { WhatsAppCloudSandbox, sandboxMessageTemplates } from '@platform/sandbox';
import { SeededAdmin, seedBotAdmin, waitForMessageStatus } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** Carousel templates read from the bot's WhatsApp Business Account, and triggers checked and sent with their buttons. */
describe('carousel templates synced from the Cloud API, triggers with buttons', () => {
  const cloud = new WhatsAppCloudSandbox();
  const stack = useStack({ cloud, worker: true, seed: true, env: { WHATSAPP_BACKOFF_MS: '20', CATALOG_CACHE_MS: '0' } });
  let admin: SeededAdmin;
  let developer: SeededAdmin;
  const byName: Record<string, { id: string; status: string; cards: unknown; cardCount: number; cardHeaderFormat: string; source: string; bodyParameterCount: number }> = {};

  beforeAll(async () => {
    admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
    developer = await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer');
  });

  const call = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const sync = (token = admin.accessToken) => call('POST', `/v1/bots/${stack.seed.botId}/whatsapp/templates/sync`, token);
  const listTemplates = async () => (await (await call('GET', `/v1/bots/${stack.seed.botId}/whatsapp/templates`, admin.accessToken)).json()).templates;
  const trigger = (body: unknown) =>
    fetch(`${stack.url}/api/engagements/notifications/v2/push?bot=${stack.seed.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': stack.seed.apiKey },
      body: JSON.stringify(body),
    });
  const summerBody = (cards: Array<Record<string, unknown>>) => ({
    userDetails: { number: '+919876543210' },
    notification: { templateId: byName.demo_summer_carousel.id, type: 'whatsapp', sender: `+${stack.seed.senderNumber}`, params: { bodyParameters: ['Ana'], cards } },
  });
  const summerCard = (i: number, extra: Record<string, unknown> = {}) => ({
    media: { mediaLink: `https://cdn.example.com/${i}.jpg` },
    bodyParameters: [`${i}0%`],
    buttons: [{ payload: `more-${i}` }, { urlSuffix: `sku-${i}` }],
    ...extra,
  });

  it('refuses to sync until a sender names its WhatsApp Business Account', async () => {
    const res = await sync();
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/wabaId/);
  });

  it('reads every page of the account, stores the carousels and skips the rest; a second sync changes nothing', async () => {
    const senders = (await (await call('GET', `/v1/bots/${stack.seed.botId}/whatsapp/senders`, admin.accessToken)).json()).senders;
    const patched = await call('PATCH', `/v1/bots/${stack.seed.botId}/whatsapp/senders/${senders[0].id}`, admin.accessToken, { wabaId: '410000000000001' });
    expect(patched.status).toBe(200);
    expect((await patched.json()).wabaId).toBe('410000000000001');

    expect((await sync(developer.accessToken)).status).toBe(403);
    const before = cloud.requests.length;
    const res = await sync();
    expect(res.status).toBe(200);
    const summary = await res.json();
    expect(summary).toMatchObject({ accounts: ['410000000000001'], created: 3, updated: 0, unchanged: 0, deleted: 0, skipped: 1 });
    const gets = cloud.requests.slice(before).filter((r) => r.method === 'GET');
    const reads = gets.filter((r) => r.path.includes('/message_templates'));
    expect(reads.map((r) => r.path.split('?')[0])).toEqual(['/v21.0/410000000000001/message_templates', '/v21.0/410000000000001/message_templates']);
    // and the sender's messaging limit tier, which a sync refreshes (docs/campaigns.md)
    expect(gets.filter((r) => !r.path.includes('/message_templates')).map((r) => r.path.split('?')[0])).toEqual([`/v21.0/${stack.seed.phoneNumberId}`]);
    expect(reads[1].path).toMatch(/[?&]after=/);
    expect(reads[0].headers.authorization).toBe(`Bearer ${stack.seed.accessToken}`);

    const again = await (await sync()).json();
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, deleted: 0, skipped: 1 });

    for (const t of await listTemplates()) byName[t.name] = t;
    expect(byName.summer_carousel).toMatchObject({ source: 'manual', status: 'APPROVED', cards: null });
    expect(byName.demo_summer_carousel).toMatchObject({
      source: 'synced',
      status: 'APPROVED',
      cardCount: 3,
      cardHeaderFormat: 'image',
      bodyParameterCount: 1,
      cards: [0, 1, 2].map(() => ({
        bodyParameterCount: 1,
        buttons: [
          { type: 'QUICK_REPLY', text: 'More like this' },
          { type: 'URL', text: 'Shop now', url: 'https://shop.example.com/item/{{1}}' },
        ],
      })),
    });
    expect(byName.demo_video_tour).toMatchObject({ cardHeaderFormat: 'video', cardCount: 2 });
    expect(byName.demo_autumn_carousel).toMatchObject({ status: 'PENDING' });
  });

  it('sends a trigger with buttons as the Cloud API expects them, ignoring card fields the platform does not read', async () => {
    const before = cloud.messages.length;
    const res = await trigger(summerBody([summerCard(1, { title: 'Summer', sku: 'A-1' }), summerCard(2), summerCard(3)]));
    expect(res.status).toBe(200);
    const { msgId } = await res.json();
    expect(await waitForMessageStatus(stack.url, stack.seed, msgId, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    const sent = cloud.messages.slice(before);
    expect(sent).toHaveLength(1);
    expect((sent[0].body as { template: unknown }).template).toEqual({
      name: 'demo_summer_carousel',
      language: { code: 'en_US' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
        {
          type: 'carousel',
          cards: [1, 2, 3].map((i) => ({
            card_index: i - 1,
            components: [
              { type: 'header', parameters: [{ type: 'image', image: { link: `https://cdn.example.com/${i}.jpg` } }] },
              { type: 'body', parameters: [{ type: 'text', text: `${i}0%` }] },
              { type: 'button', sub_type: 'quick_reply', index: 0, parameters: [{ type: 'payload', payload: `more-${i}` }] },
              { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: `sku-${i}` }] },
            ],
          })),
        },
      ],
    });
  });

  it.each([
    [
      'a URL suffix where the template has a quick reply',
      () => [summerCard(1), summerCard(2, { buttons: [{ urlSuffix: 'x' }, { urlSuffix: 'y' }] }), summerCard(3)],
      "notification.params.cards[1].buttons[0] must be a quick-reply payload (the template's card 2 button 1 is QUICK_REPLY)",
    ],
    [
      'one button value too few',
      () => [summerCard(1), summerCard(2), summerCard(3, { buttons: [{ payload: 'p' }] })],
      "notification.params.cards[2].buttons must have exactly 2 entries (the template's card 3 has 2 buttons that take a value: QUICK_REPLY, URL; got 1)",
    ],
    [
      'a card body parameter too many',
      () => [summerCard(1, { bodyParameters: ['a', 'b'] }), summerCard(2), summerCard(3)],
      "notification.params.cards[0].bodyParameters must have exactly 1 values (the template's card 1 body has 1 placeholders; got 2)",
    ],
  ])('answers 400 naming the card and field for %s, and sends nothing', async (_name, cards, message) => {
    const before = cloud.messages.length;
    const res = await trigger(summerBody(cards()));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message, status: 'error' });
    expect(cloud.messages.length).toBe(before);
  });

  it('refuses a template Meta has not approved, and keeps sending hand-registered templates without buttons', async () => {
    const pending = await trigger({
      ...summerBody([summerCard(1), summerCard(2)]),
      notification: { ...summerBody([]).notification, templateId: byName.demo_autumn_carousel.id, params: { cards: [summerCard(1), summerCard(2)] } },
    });
    expect(pending.status).toBe(400);
    expect((await pending.json()).message).toBe('notification.templateId names template demo_autumn_carousel, whose status at Meta is PENDING, not APPROVED');

    const manual = await trigger({
      userDetails: { number: '+919876543210' },
      notification: {
        templateId: stack.seed.templateId,
        type: 'whatsapp',
        sender: `+${stack.seed.senderNumber}`,
        params: { cards: [1, 2, 3].map((i) => ({ media: { mediaLink: `https://cdn.example.com/${i}.jpg` } })) },
      },
    });
    expect(manual.status).toBe(200);
  });

  it('records a status change and a template gone from the account', async () => {
    cloud.templates = sandboxMessageTemplates()
      .filter((t) => t.name !== 'demo_video_tour')
      .map((t) => (t.name === 'demo_summer_carousel' ? { ...t, status: 'PAUSED' } : t));
    const summary = await (await sync()).json();
    expect(summary).toMatchObject({ created: 0, updated: 1, unchanged: 1, deleted: 1, skipped: 1 });
    const now = Object.fromEntries((await listTemplates()).map((t: { name: string; status: string }) => [t.name, t.status]));
    expect(now).toMatchObject({ demo_summer_carousel: 'PAUSED', demo_video_tour: 'DELETED', demo_autumn_carousel: 'PENDING', summer_carousel: 'APPROVED' });
    const paused = await trigger(summerBody([summerCard(1), summerCard(2), summerCard(3)]));
    expect(paused.status).toBe(400);
    expect((await sync()).status).toBe(200);
    expect(await (await sync()).json()).toMatchObject({ updated: 0, deleted: 0 });
  });
});
