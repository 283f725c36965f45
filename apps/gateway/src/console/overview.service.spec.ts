import 'reflect-metadata';
import type { BotDefinitionRepository, CarouselDayRow, DayRange, JourneyNodeRow, OverviewRepository } from '@platform/database';
import { InvalidOverviewRangeError } from './invalid-overview-range.error.js';
import { OverviewService } from './overview.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const T1 = '11111111-1111-4111-8111-111111111111';
const S1 = '22222222-2222-4222-8222-222222222222';
const S2 = '33333333-3333-4333-8333-333333333333';

function carousel(day: string, senderId: string, c: Partial<CarouselDayRow>): CarouselDayRow {
  const row = { pending: 0, sent: 0, delivered: 0, read: 0, failed: 0, ...c };
  return {
    day,
    templateId: T1,
    templateName: 'promo',
    language: 'en',
    senderId,
    senderNumber: senderId === S1 ? '15550001111' : null,
    total: row.pending + row.sent + row.delivered + row.read + row.failed,
    ...row,
  };
}

function setup(rows: { carousels?: CarouselDayRow[]; nodes?: JourneyNodeRow[]; senders?: number; definition?: object } = {}) {
  const calls: string[] = [];
  const repo = {
    refresh: async (botId: string, r: DayRange) => void calls.push(`refresh ${botId} ${r.from}..${r.to}`),
    refreshParts: async (botId: string, r: DayRange) => void calls.push(`refreshParts ${botId} ${r.from}..${r.to}`),
    carouselDays: async () => (calls.push('read'), rows.carousels ?? []),
    replyDays: async (_b: string, r: DayRange) => [{ day: '2026-12-02', pending: 1, sent: 0, delivered: 2, read: 3, failed: 1 }].filter((d) => d.day >= r.from && d.day <= r.to),
    conversationsPerChannel: async () => [{ channel: 'web', conversations: 4 }],
    journeyNodes: async () => rows.nodes ?? [],
    liveSenders: async () => rows.senders ?? 1,
  } as unknown as OverviewRepository;
  const definitions = {
    publishedVersion: async () => (rows.definition ? 3 : null),
    findVersion: async (_b: string, v: number) => (v === 3 ? { definition: rows.definition } : null),
  } as unknown as BotDefinitionRepository;
  return { calls, service: new OverviewService(repo, definitions) };
}

describe('OverviewService', () => {
  it('recounts the range first, lists every day, sums the funnels per template and sender', async () => {
    const { service, calls } = setup({
      carousels: [carousel('2026-12-01', S1, { read: 5, delivered: 2, sent: 1, failed: 2, pending: 1 }), carousel('2026-12-03', S2, { read: 1, failed: 1 })],
    });
    const o = await service.overview(BOT, { from: '2026-12-01', to: '2026-12-03' });
    // every rollup recounted before any is read
    expect(calls).toEqual([`refresh ${BOT} 2026-12-01..2026-12-03`, `refreshParts ${BOT} 2026-12-01..2026-12-03`, 'read']);
    expect(o.days.map((d) => d.day)).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
    expect(o.days[1]).toEqual({ day: '2026-12-02', carousels: { pending: 0, sent: 0, delivered: 0, read: 0, failed: 0 }, replies: { pending: 1, sent: 0, delivered: 2, read: 3, failed: 1 } });
    expect(o.totals.carousels).toEqual({ accepted: 13, pending: 1, sent: 1, delivered: 2, read: 6, failed: 3 });
    // a read message was delivered and sent: each stage counts what got at least that far
    expect(o.templates).toEqual([{ templateId: T1, name: 'promo', language: 'en', accepted: 13, sent: 9, delivered: 8, read: 6, failed: 3, pending: 1 }]);
    expect(o.senders).toEqual([
      { senderId: S1, number: '15550001111', accepted: 11, sent: 8, delivered: 7, read: 5, failed: 2, pending: 1 },
      { senderId: S2, number: null, accepted: 2, sent: 1, delivered: 1, read: 1, failed: 1, pending: 0 },
    ]);
    expect(o.conversations).toEqual([
      { channel: 'whatsapp', conversations: 0 },
      { channel: 'web', conversations: 4 },
    ]);
  });

  it('rolls the nodes up into journeys: completion, drop-off and error rates', async () => {
    const node = (n: Partial<JourneyNodeRow>): JourneyNodeRow => ({ journey: 'start', node: 'x', kind: 'message', reached: 0, steps: 0, errors: 0, stopped: 0, ended: 0, waiting: 0, ...n });
    const { service } = setup({
      nodes: [
        node({ node: 'ask', kind: 'question', reached: 4, steps: 6, errors: 0, stopped: 1, waiting: 1 }),
        node({ node: 'lookup', kind: 'code', reached: 3, steps: 4, errors: 1, stopped: 1 }),
        node({ node: 'bye', kind: 'end', reached: 2, steps: 2, stopped: 2, ended: 2 }),
      ],
    });
    const [j] = (await service.overview(BOT, { from: '2026-12-01', to: '2026-12-01' })).journeys;
    expect(j).toMatchObject({ journey: 'start', conversations: 4, completed: 2, completionRate: 0.5, waiting: 1, errors: 1, steps: 12 });
    expect(j.nodes.map((n) => [n.node, n.errorRate])).toEqual([
      ['ask', 0],
      ['lookup', 0.25],
      ['bye', 0],
    ]);
  });

  it('counts a journey that hands on to another (its goto node) as completed, naming where it went', async () => {
    const node = (n: Partial<JourneyNodeRow>): JourneyNodeRow => ({ journey: 'greet', node: 'x', kind: 'message', reached: 0, steps: 0, errors: 0, stopped: 0, ended: 0, waiting: 0, ...n });
    const definition = {
      journeys: [
        {
          slug: 'greet',
          nodes: [
            { id: 'to-menu', kind: 'goto', journey: 'menu' },
            { id: 'to-agent', kind: 'goto', journey: 'support' },
          ],
        },
      ],
    };
    const { service } = setup({
      definition,
      nodes: [
        node({ node: 'hello', reached: 5, steps: 5 }),
        node({ node: 'to-menu', kind: 'goto', reached: 4, steps: 4, stopped: 4 }),
        node({ node: 'to-agent', kind: 'goto', reached: 1, steps: 1, stopped: 1 }),
        node({ node: 'old', kind: 'goto', reached: 1, steps: 1, stopped: 1 }), // a node the published version no longer has
      ],
    });
    const [j] = (await service.overview(BOT, { from: '2026-12-01', to: '2026-12-01' })).journeys;
    expect(j).toMatchObject({ journey: 'greet', conversations: 6, completed: 6, completionRate: 1, handedOn: 6, handedOnTo: ['menu', 'support'], waiting: 0 });
    expect(j.nodes.map((n) => [n.node, n.ended, n.handedOn, n.handsOnTo])).toEqual([
      ['hello', 0, 0, null],
      ['to-menu', 0, 4, 'menu'],
      ['to-agent', 0, 1, 'support'],
      ['old', 0, 1, null],
    ]);
    // Without a published version the hand-ons still count; where they went is not known.
    const [bare] = (await setup({ nodes: [node({ node: 'to-menu', kind: 'goto', reached: 2, steps: 2, stopped: 2 })] }).service.overview(BOT, { from: '2026-12-01', to: '2026-12-01' })).journeys;
    expect(bare).toMatchObject({ completed: 2, completionRate: 1, handedOn: 2, handedOnTo: [] });
  });

  it('says how many sender numbers the bot has, whether or not they sent anything in the range', async () => {
    expect((await setup({ senders: 0 }).service.overview(BOT, { from: '2026-12-01', to: '2026-12-01' })).senderNumbers).toBe(0);
    const quiet = await setup({ senders: 2 }).service.overview(BOT, { from: '2026-12-01', to: '2026-12-01' });
    expect([quiet.senders, quiet.senderNumbers]).toEqual([[], 2]);
  });

  it('defaults to the last 30 days, today included', () => {
    const { service } = setup();
    const today = new Date().toISOString().slice(0, 10);
    const r = service.range({});
    expect(r.to).toBe(today);
    expect((Date.parse(r.to) - Date.parse(r.from)) / 86_400_000).toBe(29);
  });

  it.each([
    [{ from: '2026-02-30', to: '2026-03-01' }, /^from must be a calendar day/],
    [{ to: '2026-13-01' }, /^to must be a calendar day/],
    [{ from: '2026-12-05', to: '2026-12-01' }, /must not be after/],
    [{ from: '2025-01-01', to: '2026-12-01' }, /at most 366 days/],
  ])('refuses %j with a 400 naming the problem, before reading anything', async (query, message) => {
    const { service, calls } = setup();
    const refused = await service.overview(BOT, query).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidOverviewRangeError);
    expect((refused as Error).message).toMatch(message);
    expect(calls).toEqual([]);
  });
});
