import { randomUUID } from 'node:crypto';
import type { MessagingLimitCheckView, SenderView } from '@platform/contracts';
import { PrismaService } from '@platform/database';
import { seedBotAdmin } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { campaignCall, createCampaign, listAudience, number } from './campaign-support.js';

type Preview = { messagingLimit?: MessagingLimitCheckView };
type Refusal = { message: string; status: string; details: { messagingLimit: MessagingLimitCheckView } };

/**
 * Meta's messaging limits (24-hour unique business-initiated recipients): each sender's tier is read from
 * the Graph API (the loopback Cloud API answers it per number) when it is saved, when templates are synced
 * and at a campaign's start; the preview and the start check the campaign against it.
 */
describe("campaigns: the sender's messaging limit (Meta's tier)", () => {
  const stack = useStack({ cloud: true, seed: true });
  const call = <T>(method: string, path: string, body?: unknown) => campaignCall<T>(stack.url, stack.seed, method, path, body);
  const recent = (i: number) => number(97, i);

  /** 200 users messaged through the sender in the last 24 hours; failed ones and older ones do not count. */
  beforeAll(async () => {
    const db = stack.gateway.get(PrismaService, { strict: false });
    const { rows } = await db.query<{ id: string }>({ text: `SELECT id FROM channel_senders WHERE bot_id = $1`, values: [stack.seed.botId] });
    const insert = (recipient: string, status: string, ageHours: number) =>
      db.query({
        text: `INSERT INTO messages (id, bot_id, template_id, sender_id, channel, recipient, status, created_at, updated_at)
               VALUES ($1, $2, $3, $4, 'whatsapp', $5, $6::"MessageStatus", now() - make_interval(hours => $7), now())`,
        values: [randomUUID(), stack.seed.botId, stack.seed.templateId, rows[0].id, recipient, status, ageHours],
      });
    for (let i = 0; i < 200; i++) await insert(recent(i).slice(1), i % 2 ? 'sent' : 'delivered', 1);
    await insert(recent(0).slice(1), 'sent', 2); // the same user twice: one
    for (let i = 200; i < 230; i++) await insert(recent(i).slice(1), 'failed', 1);
    for (let i = 230; i < 260; i++) await insert(recent(i).slice(1), 'sent', 25);
  });

  /** A draft of 100 recipients, 10 of them among the 200 messaged lately. */
  const draft = async () => {
    const c = await createCampaign(stack.url, stack.seed);
    const rows = Array.from({ length: 100 }, (_, i) => ({ number: i < 10 ? recent(i) : number(96, i), tz: 'UTC', img: `https://cdn.example.com/${i}.jpg` }));
    await listAudience(stack.url, stack.seed, c.id, rows);
    return c.id;
  };

  it('preview and start warn when the last 24 hours plus the campaign pass the tier; the start is refused with 409 until acknowledged', async () => {
    stack.cloud.messagingLimits.set(stack.seed.phoneNumberId, 'TIER_250');
    const id = await draft();

    const preview = await call<Preview>('GET', `/${id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.body.messagingLimit).toMatchObject({ tier: 'TIER_250', limit: 250, messagedLast24h: 200, campaignNext24h: 90, exceeded: true });
    expect(preview.body.messagingLimit?.warning).toContain('TIER_250');

    const refused = await call<Refusal>('POST', `/${id}/start`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.details.messagingLimit).toMatchObject({ tier: 'TIER_250', fresh: true, messagedLast24h: 200, campaignNext24h: 90, exceeded: true });
    expect(refused.body.message).toContain('messaged 200 in the last 24 hours and this campaign would add 90 more in the next 24 hours (290 in all, 40 over)');
    expect(refused.body.message).toContain('acknowledgeTierLimit: true');
    expect((await call<{ status: string }>('GET', `/${id}`)).body.status).toBe('draft');

    const acknowledged = await call<{ status: string; messagingLimit?: MessagingLimitCheckView }>('POST', `/${id}/start`, { acknowledgeTierLimit: true });
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body).toMatchObject({ status: 'running', messagingLimit: { tier: 'TIER_250', exceeded: true } });
    await call('POST', `/${id}/cancel`);
    expect((await call('POST', `/${id}/start`, { acknowledgeTierLimit: 'yes' })).status).toBe(400);
  });

  it('the start reads the tier from Meta again: within a higher tier the campaign starts without a warning', async () => {
    stack.cloud.messagingLimits.set(stack.seed.phoneNumberId, 'TIER_250');
    const id = await draft();
    expect((await call<Preview>('GET', `/${id}/preview`)).body.messagingLimit?.exceeded).toBe(true);
    stack.cloud.messagingLimits.set(stack.seed.phoneNumberId, 'TIER_1K');
    const started = await call<{ status: string; messagingLimit?: unknown }>('POST', `/${id}/start`, {});
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('running');
    expect(started.body.messagingLimit).toBeUndefined();
    await call('POST', `/${id}/cancel`);
  });

  it('the tier is stored when a sender is saved and when templates are synced', async () => {
    const admin = await seedBotAdmin(stack.gateway, stack.seed.botId);
    const api = async <T>(method: string, path: string, body?: unknown) => {
      const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/whatsapp${path}`, {
        method,
        headers: { authorization: `Bearer ${admin.accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as T };
    };
    const [sender] = (await api<{ senders: SenderView[] }>('GET', '/senders')).body.senders;
    stack.cloud.messagingLimits.set(stack.seed.phoneNumberId, 'TIER_10K');
    const saved = await api<SenderView>('PATCH', `/senders/${sender.id}`, { accessToken: `${stack.seed.accessToken}-2`, wabaId: '102290129340398' });
    expect(saved.status).toBe(200);
    expect(saved.body.messagingLimitTier).toBe('TIER_10K');

    stack.cloud.messagingLimits.set(stack.seed.phoneNumberId, 'TIER_100K');
    expect((await api('POST', '/templates/sync')).status).toBe(200);
    const [after] = (await api<{ senders: SenderView[] }>('GET', '/senders')).body.senders;
    expect(after).toMatchObject({ messagingLimitTier: 'TIER_100K', messagingLimitReadAt: expect.any(String) });
  });
});
