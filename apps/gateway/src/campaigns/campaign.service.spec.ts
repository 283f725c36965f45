import 'reflect-metadata';
import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import type { CampaignRepository, CampaignRow, CarouselCatalog } from '@platform/database';
import type { CampaignPlanQueue } from '@platform/queue';
import type { MessagingLimitCheckView } from '@platform/contracts';
import { CampaignService } from './campaign.service.js';
import type { MessagingLimitCheck } from './messaging-limit-check.js';
import type { TimeZones } from './time-zones.js';

const BOT = '6a1c2c9e-1111-4111-8111-111111111111';
const ID = '6a1c2c9e-2222-4222-8222-222222222222';
const TEMPLATE = '6a1c2c9e-3333-4333-8333-333333333333';
const mapping = { number: 'phone', cards: [{ mediaLink: 'img' }] };

function row(over: Partial<CampaignRow> = {}): CampaignRow {
  return {
    id: ID,
    botId: BOT,
    name: 'sale',
    templateId: TEMPLATE,
    senderId: 's1',
    status: 'draft',
    mapping,
    startAt: null,
    timeZone: 'UTC',
    quietFromMinute: null,
    quietToMinute: null,
    frequencyCap: null,
    transactional: false,
    sendShare: 0.8,
    validitySeconds: null,
    audienceSource: 'csv',
    uploadId: 'u1',
    plannerId: null,
    audienceReady: true,
    rowsTotal: 10,
    rowsInvalid: 0,
    rowsRead: 10,
    rowsDuplicate: 0,
    createdAt: new Date('2026-12-01T00:00:00Z'),
    startedAt: null,
    finishedAt: null,
    ...over,
  };
}

const within: MessagingLimitCheckView = { tier: 'TIER_1K', limit: 1000, readAt: null, fresh: true, messagedLast24h: 10, campaignNext24h: 10, exceeded: false, warning: null };

function setup(current: CampaignRow | null = row(), limit: MessagingLimitCheckView = within) {
  const created: unknown[] = [];
  const transitions: Array<[string[], string, string | undefined]> = [];
  const planners: Array<[string, unknown, { jobId?: string }]> = [];
  const campaigns = {
    create: async (c: Partial<CampaignRow>) => (created.push(c), row(c)),
    find: async () => current,
    transition: async (_b: string, _i: string, from: string[], to: CampaignRow['status'], plannerId?: string) => {
      transitions.push([from, to, plannerId]);
      return current && from.includes(current.status) ? row({ ...current, status: to, plannerId: plannerId ?? null }) : null;
    },
    cancelPending: async () => 0,
  } as unknown as CampaignRepository;
  const catalog = {
    templateOfBot: async (_b: string, id: string) => (id === TEMPLATE ? { id, channel: 'whatsapp', status: 'APPROVED', providerName: 'p', bodyParameterCount: 0, cards: null, cardCount: 1 } : null),
    senderByNumber: async (_b: string, _c: string, n: string) => (n === '15550001111' ? { id: 's1' } : null),
  } as unknown as CarouselCatalog;
  const queue = { add: async (name: string, data: unknown, opts: { jobId?: string }) => void planners.push([name, data, opts]) } as unknown as CampaignPlanQueue;
  const zones = { checker: async () => (tz: string) => ['UTC', 'Europe/Berlin'].includes(tz) } as unknown as TimeZones;
  const checks: boolean[] = [];
  const limits = { check: async (_c: CampaignRow, refresh: boolean) => (checks.push(refresh), limit) } as unknown as MessagingLimitCheck;
  return { service: new CampaignService(campaigns, catalog, queue, zones, limits), created, transitions, planners, checks };
}

const dto = { name: ' sale ', templateId: TEMPLATE, sender: '+15550001111', mapping };

describe('CampaignService', () => {
  it('creates a draft with quiet hours in minutes and the defaults', async () => {
    const { service, created } = setup();
    await service.create(BOT, { ...dto, schedule: { timeZone: 'Europe/Berlin', quietHours: { from: '21:30', to: '08:00' } } });
    expect(created[0]).toMatchObject({ name: 'sale', senderId: 's1', timeZone: 'Europe/Berlin', quietFromMinute: 1290, quietToMinute: 480, sendShare: 0.8, frequencyCap: null, transactional: false });
  });

  it.each([
    [{ templateId: ID }, 'templateId is not a carousel template of this bot'],
    [{ sender: '+15550009999' }, 'sender is not a whatsapp sender of this bot'],
    [{ mapping: { number: 'phone', cards: [] } }, 'mapping.cards must have exactly 1 cards for this template (got 0)'],
    [{ schedule: { startAt: 'soon' } }, 'schedule.startAt must be an ISO 8601 date-time'],
    [{ schedule: { timeZone: 'Mars/Olympus' } }, 'schedule.timeZone must be an IANA time zone (e.g. Europe/Berlin)'],
    [{ schedule: { quietHours: { from: '08:00', to: '08:00' } } }, 'schedule.quietHours.from and .to must differ'],
  ])('refuses %j with a 400 naming it', async (change, message) => {
    await expect(setup().service.create(BOT, { ...dto, ...change } as never)).rejects.toThrow(new BadRequestException(message));
  });

  it('starts a draft with a complete audience: running now, its planner job named by campaign and planner', async () => {
    const { service, planners, transitions } = setup();
    expect((await service.start(BOT, ID, false)).status).toBe('running');
    const plannerId = transitions[0][2];
    expect(plannerId).toBeDefined();
    expect(planners).toEqual([['plan', { campaignId: ID, plannerId }, { jobId: `plan-${ID}-${plannerId}` }]]);
  });

  it('a start time ahead makes it scheduled', async () => {
    const { service } = setup(row({ startAt: new Date(Date.now() + 60_000) }));
    expect((await service.start(BOT, ID, false)).status).toBe('scheduled');
  });

  it.each([
    [row({ audienceReady: false }), 'campaign has no complete audience: upload one (an interrupted upload does not count)'],
    [row({ rowsInvalid: 2 }), 'campaign audience has 2 invalid rows (see the preview); start with skipInvalid: true to send to the others'],
    [row({ rowsInvalid: 1 }), 'campaign audience has 1 invalid row (see the preview); start with skipInvalid: true to send to the others'],
    [row({ rowsInvalid: 10 }), 'campaign audience has no valid recipient'],
    [row({ status: 'running' }), 'campaign is running; only a draft can be started'],
  ])('refuses to start %#', async (current, message) => {
    await expect(setup(current).service.start(BOT, ID, false)).rejects.toThrow(new ConflictException(message));
  });

  it('starts with invalid rows when told to skip them', async () => {
    expect((await setup(row({ rowsInvalid: 2 })).service.start(BOT, ID, true)).status).toBe('running');
  });

  it("refuses a start past the sender's messaging limit with 409 and the check, unless acknowledged", async () => {
    const over = { ...within, tier: 'TIER_250', limit: 250, messagedLast24h: 200, campaignNext24h: 100, exceeded: true, warning: 'at TIER_250: 300 in all' };
    const refused = setup(row(), over);
    const err = await refused.service.start(BOT, ID, false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictException);
    expect((err as ConflictException).getResponse()).toEqual({ message: 'at TIER_250: 300 in all', details: { messagingLimit: over } });
    expect(refused.checks).toEqual([true]); // the tier read from Meta at the start
    expect(refused.transitions).toEqual([]);
    const acknowledged = await setup(row(), over).service.start(BOT, ID, false, true);
    expect(acknowledged).toMatchObject({ status: 'running', messagingLimit: over });
    expect(await setup().service.start(BOT, ID, false)).not.toHaveProperty('messagingLimit');
  });

  it('resume gives the campaign a new planner; pause and cancel move only from the states they name', async () => {
    const paused = setup(row({ status: 'paused' }));
    expect((await paused.service.resume(BOT, ID)).status).toBe('running');
    expect(paused.planners).toHaveLength(1);
    await expect(setup(row({ status: 'completed' })).service.pause(BOT, ID)).rejects.toThrow(new ConflictException('campaign is completed; it cannot become paused (only from running, scheduled)'));
    expect((await setup(row({ status: 'running' })).service.cancel(BOT, ID)).status).toBe('cancelled');
  });

  it('an unknown campaign, or a malformed id, is a 404', async () => {
    await expect(setup(null).service.get(BOT, ID)).rejects.toBeInstanceOf(NotFoundException);
    await expect(setup().service.get(BOT, 'nope')).rejects.toBeInstanceOf(NotFoundException);
  });
});
