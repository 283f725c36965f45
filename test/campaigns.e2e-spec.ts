import { setTimeout as sleep } from 'node:timers/promises';
import type { CampaignAudienceView, CampaignView } from '@platform/contracts';
import { SecretBox } from '@platform/crypto';
import { ChannelSenderRepository, MessageRepository, PrismaService } from '@platform/database';
import { carouselBody, triggerCarousel, until } from '@platform/testing';
import { useStack } from './e2e-stack.js';
import { MAPPING, campaignCall, createCampaign, csvStream, listAudience, number, progress, untilDrained } from './campaign-support.js';

/** Rows of `count` recipients (numbers `number(prefix, from + i)`) in time zone `tz`. */
const rows = (prefix: number, count: number, tz = 'UTC', from = 0) =>
  Array.from({ length: count }, (_, i) => ({ number: number(prefix, from + i), tz, img: `https://cdn.example.com/${from + i}.jpg` }));

/**
 * Campaigns end to end: audiences (a streamed 10,000-row CSV with its preview and errors, a list),
 * sending with pause, resume and cancel, the frequency cap, quiet hours by recipient time zone, a
 * start time, and triggers of the same number going first while a campaign drains. Each campaign's
 * ledger is checked against what the loopback Cloud API received: no recipient twice.
 */
describe('campaigns', () => {
  const stack = useStack({ cloud: true, seed: true, worker: true });
  let db: PrismaService;
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, type?: string) => campaignCall<T>(stack.url, stack.seed, method, path, body, type);
  /** Messages the Cloud API accepted for `to` (digits). */
  const received = (to: string) => stack.cloud.arrivals.filter((a) => a.to === to.replace(/^\+/, '')).length;
  const ledgerRows = async (id: string) => Number((await db.query<{ n: string }>({ text: `SELECT count(*) AS n FROM campaign_recipients WHERE campaign_id = $1`, values: [id] })).rows[0].n);

  beforeAll(async () => {
    db = stack.gateway.get(PrismaService, { strict: false });
    await db.query({ text: `UPDATE channel_senders SET throughput = 200 WHERE bot_id = $1`, values: [stack.seed.botId] });
  });

  it('streams a 10,000-row CSV into the ledger and previews its rows and errors; start waits for a decision on them', async () => {
    const c = await createCampaign(stack.url, stack.seed);
    expect((await call<CampaignView>('GET', `/${c.id}`)).body.audience).toEqual({ source: null, ready: false, rows: 0, invalid: 0, rowsRead: null, duplicates: null });
    const bad: Record<number, string> = {
      3: '12,UTC,https://cdn.example.com/x.jpg',
      5: `${number(91, 5)},Mars/Olympus,https://cdn.example.com/x.jpg`,
      7: `${number(91, 7)},UTC,not-a-url`,
      9: `${number(91, 1)},UTC,https://cdn.example.com/again.jpg`,
    };
    const started = Date.now();
    const res = await call<CampaignAudienceView>(
      'PUT',
      `/${c.id}/audience/csv`,
      csvStream(10_000, (i) => bad[i]),
      'text/csv',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'csv', rows: 10_000, invalid: 3, duplicates: 1, valid: 9_996 });
    expect(res.body.errors.map((e) => e.row)).toEqual([4, 6, 8]);
    expect(res.body.errors[0].error).toMatch(/column number: "12" is not a number/);
    expect(res.body.errors[1].error).toMatch(/column tz: "Mars\/Olympus" is not an IANA time zone/);
    expect(res.body.errors[2].error).toMatch(/column img: "not-a-url" is not an http\(s\) URL/);
    expect(res.body.preview[0]).toEqual({
      row: 1,
      recipient: number(91, 0).slice(1),
      timeZone: 'Asia/Kolkata',
      values: { cards: [{ mediaLink: 'https://cdn.example.com/0.jpg' }, { mediaLink: 'https://cdn.example.com/b.jpg' }, { mediaLink: 'https://cdn.example.com/c.jpg' }] },
    });
    console.log(`10,000-row CSV staged in ${Date.now() - started} ms`);
    // One ledger row per (campaign, recipient): the repeated number kept its first row.
    expect(await ledgerRows(c.id)).toBe(9_999);

    const preview = await call<CampaignAudienceView>('GET', `/${c.id}/preview`);
    expect(preview.body.errors.map((e) => e.row)).toEqual([4, 6, 8]);
    expect(preview.body.preview[0]).toEqual(res.body.preview[0]);
    // The campaign keeps what the upload read: read again later, it counts the file's rows and repeats as the upload's answer did.
    const view = await call<CampaignView>('GET', `/${c.id}`);
    expect(view.body.audience).toEqual({ source: 'csv', ready: true, rows: 9_999, invalid: 3, rowsRead: 10_000, duplicates: 1 });
    const listed = await call<{ campaigns: CampaignView[] }>('GET', '');
    expect(listed.body.campaigns.find((x) => x.id === c.id)?.audience).toEqual(view.body.audience);

    const start = await call('POST', `/${c.id}/start`, {});
    expect(start.status).toBe(409);
    expect(start.body.message).toMatch(/3 invalid rows .* skipInvalid: true/);
    expect((await call('POST', `/${c.id}/cancel`)).body.status).toBe('cancelled');
  }, 120_000);

  it('refuses a CSV without a mapped column, an unreadable CSV, and a bad mapping, naming the problem', async () => {
    const c = await createCampaign(stack.url, stack.seed);
    const noImg = await call('PUT', `/${c.id}/audience/csv`, 'number,tz\n+919800000001,UTC\n', 'text/csv');
    expect(noImg.status).toBe(400);
    expect(noImg.body.message).toMatch(/the CSV header has no column img/);
    const unclosed = await call('PUT', `/${c.id}/audience/csv`, 'number,tz,img\n"+919800000001,UTC,https://a.example/x.jpg\n', 'text/csv');
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.message).toMatch(/the CSV cannot be read/);

    const twoCards = await call('POST', '', { name: 'x', templateId: stack.seed.templateId, sender: `+${stack.seed.senderNumber}`, mapping: { ...MAPPING, cards: MAPPING.cards.slice(0, 2) } });
    expect(twoCards.status).toBe(400);
    expect(twoCards.body.message).toBe('mapping.cards must have exactly 3 cards for this template (got 2)');
    const quiet = await call('POST', '', {
      name: 'x',
      templateId: stack.seed.templateId,
      sender: `+${stack.seed.senderNumber}`,
      mapping: MAPPING,
      schedule: { quietHours: { from: '25:00', to: '08:00' } },
    });
    expect(quiet.status).toBe(400);
    expect(quiet.body.message).toMatch(/schedule.quietHours must be/);
  });

  it('an upload cut off midway (client gone, gateway restarted) is never the audience: start waits for a complete upload', async () => {
    const c = await createCampaign(stack.url, stack.seed);
    await listAudience(stack.url, stack.seed, c.id, rows(92, 3));
    // The body stream fails after 3,000 rows: the request is cut off.
    const body = csvStream(3_000, undefined, 500, new Error('cut off'));
    const cut = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/campaigns/${c.id}/audience/csv`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${stack.seed.apiKey}`, 'content-type': 'text/csv' },
      body,
      duplex: 'half',
    } as RequestInit).then(
      (res) => res.status,
      () => 'cut off',
    );
    expect(cut).toBe('cut off');
    await until(async () => ((await ledgerRows(c.id)) >= 1000 ? true : undefined), 10_000, 'rows of the cut-off upload staged');
    const view = await call<CampaignView>('GET', `/${c.id}`);
    expect(view.body.audience.ready).toBe(false);
    const start = await call('POST', `/${c.id}/start`, {});
    expect(start.status).toBe(409);
    expect(start.body.message).toMatch(/no complete audience/);
    const again = await listAudience(stack.url, stack.seed, c.id, rows(92, 4));
    expect(again).toMatchObject({ rows: 4, valid: 4 });
    await until(async () => ((await ledgerRows(c.id)) === 4 ? true : undefined), 10_000, 'only the complete upload left');
    expect((await call('POST', `/${c.id}/cancel`)).status).toBe(200);
  }, 120_000);

  it('sends to each recipient once through pause and resume, with live progress and a funnel', async () => {
    const c = await createCampaign(stack.url, stack.seed, { sendShare: 0.2 }); // 40 messages a second
    // Ten seconds of sending: the campaign is still admitting when the pause comes, on a loaded host too
    // (once every recipient is admitted it is completed, and a completed campaign cannot be paused).
    const AUDIENCE = 400;
    const audience = rows(93, AUDIENCE);
    await listAudience(stack.url, stack.seed, c.id, audience);
    expect((await call<CampaignView>('POST', `/${c.id}/start`, {})).body.status).toBe('running');
    await until(async () => ((await progress(stack.url, stack.seed, c.id)).funnel.sent >= 20 ? true : undefined), 10_000, '20 sent');
    expect((await call<CampaignView>('POST', `/${c.id}/pause`)).body.status).toBe('paused');
    // What workers had in hand settles (the pause reaches them within a second; longer on a starved
    // host): the count holds still for a second. A pause that did not stop sending never gets there.
    const reached = () => audience.filter((r) => received(r.number) > 0).length;
    let last = -1;
    const atPause = await until(
      async () => {
        const now = reached();
        const still = now === last;
        last = now;
        if (!still) await sleep(1000);
        return still ? now : undefined;
      },
      30_000,
      'sends settling after the pause',
    );
    await sleep(1500);
    expect(audience.filter((r) => received(r.number) > 0).length).toBe(atPause);
    expect(atPause).toBeLessThan(AUDIENCE);
    const paused = await progress(stack.url, stack.seed, c.id);
    expect(paused.status).toBe('paused');
    expect(paused.recipients.pending).toBeGreaterThan(0);

    expect((await call<CampaignView>('POST', `/${c.id}/resume`)).body.status).toBe('running');
    const done = await untilDrained(stack.url, stack.seed, c.id, 60_000);
    expect(done.funnel).toMatchObject({ queued: AUDIENCE, sent: AUDIENCE, failed: 0 });
    expect(done.recipients).toMatchObject({ total: AUDIENCE, pending: 0, queued: AUDIENCE });
    // The ledger check: every recipient received exactly one message.
    expect(audience.map((r) => received(r.number))).toEqual(audience.map(() => 1));

    // A reply of one recipient after its message shows in the funnel.
    const replier = audience[0].number.slice(1);
    await db.query({
      text: `INSERT INTO conversations (id, bot_id, channel, user_id, last_inbound_at, created_at, updated_at) VALUES (gen_random_uuid(), $1, 'whatsapp', $2, now(), now(), now())`,
      values: [stack.seed.botId, replier],
    });
    expect((await progress(stack.url, stack.seed, c.id)).funnel.replied).toBe(1);
  }, 120_000);

  it('cancel stops a running campaign: what was not sent is cancelled, nothing more goes', async () => {
    const c = await createCampaign(stack.url, stack.seed, { sendShare: 0.1 }); // 20 a second
    const audience = rows(94, 100);
    await listAudience(stack.url, stack.seed, c.id, audience);
    await call('POST', `/${c.id}/start`, {});
    await until(async () => ((await progress(stack.url, stack.seed, c.id)).funnel.sent >= 5 ? true : undefined), 10_000, '5 sent');
    expect((await call<CampaignView>('POST', `/${c.id}/cancel`)).body.status).toBe('cancelled');
    await sleep(2000);
    const sent = audience.filter((r) => received(r.number) > 0).length;
    await sleep(1000);
    expect(audience.filter((r) => received(r.number) > 0).length).toBe(sent);
    const p = await progress(stack.url, stack.seed, c.id);
    expect(p.status).toBe('cancelled');
    expect(p.recipients.cancelled).toBeGreaterThan(50);
    expect(p.funnel.sent).toBe(sent);
    expect(audience.every((r) => received(r.number) <= 1)).toBe(true);
    expect((await call('POST', `/${c.id}/resume`)).status).toBe(409);
  }, 120_000);

  it('the frequency cap holds back users who had their campaign messages in the last 24 h; a transactional campaign is not held back', async () => {
    const first = await createCampaign(stack.url, stack.seed, { frequencyCap: 1 });
    await listAudience(stack.url, stack.seed, first.id, rows(95, 5));
    await call('POST', `/${first.id}/start`, {});
    await untilDrained(stack.url, stack.seed, first.id);

    const second = await createCampaign(stack.url, stack.seed, { frequencyCap: 1 });
    await listAudience(stack.url, stack.seed, second.id, [...rows(95, 3), ...rows(95, 2, 'UTC', 10)]);
    await call('POST', `/${second.id}/start`, {});
    const p = await untilDrained(stack.url, stack.seed, second.id);
    expect(p.recipients).toMatchObject({ total: 5, capped: 3, queued: 2 });
    expect(p.funnel.sent).toBe(2);

    const orders = await createCampaign(stack.url, stack.seed, { frequencyCap: 1, transactional: true });
    await listAudience(stack.url, stack.seed, orders.id, rows(95, 2));
    await call('POST', `/${orders.id}/start`, {});
    expect((await untilDrained(stack.url, stack.seed, orders.id)).funnel.sent).toBe(2);
    expect([0, 1, 2, 3, 4, 10, 11].map((i) => received(number(95, i)))).toEqual([2, 2, 1, 1, 1, 1, 1]);
  }, 120_000);

  it('quiet hours hold each recipient by their own time zone; a start time holds the whole campaign', async () => {
    const hour = new Date().getUTCHours();
    const hh = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    const c = await createCampaign(stack.url, stack.seed, {
      schedule: { startAt: new Date(Date.now() + 1500).toISOString(), timeZone: 'UTC', quietHours: { from: hh(hour - 1), to: hh(hour + 1) } },
    });
    // Now is in the quiet hours in UTC, and 14 hours past them in Kiritimati (UTC+14).
    await listAudience(stack.url, stack.seed, c.id, [...rows(96, 3, 'UTC'), ...rows(96, 3, 'Pacific/Kiritimati', 10)]);
    const started = await call<CampaignView>('POST', `/${c.id}/start`, {});
    expect(started.body.status).toBe('scheduled');
    await sleep(700);
    expect([10, 11, 12].map((i) => received(number(96, i)))).toEqual([0, 0, 0]);
    const p = await until(async () => {
      const now = await progress(stack.url, stack.seed, c.id);
      return now.funnel.sent === 3 ? now : undefined;
    });
    expect(p.status).toBe('running');
    const firstSend = Math.min(...stack.cloud.arrivals.filter((a) => a.to.startsWith('96')).map((a) => a.at));
    expect(firstSend).toBeGreaterThanOrEqual(new Date(started.body.schedule.startAt!).getTime() - 50);
    await sleep(1000);
    expect([0, 1, 2].map((i) => received(number(96, i)))).toEqual([0, 0, 0]);
    expect(p.recipients.pending).toBe(3);
    await call('POST', `/${c.id}/cancel`);
  }, 120_000);

  it("a trigger of the campaign's number goes before the campaign's backlog, and both keep to the number's rate", async () => {
    const secrets = stack.gateway.get(SecretBox, { strict: false });
    const phoneNumberId = '1065999000111';
    const sender = await stack.gateway.get(ChannelSenderRepository, { strict: false }).create({
      botId: stack.seed.botId,
      channel: 'whatsapp',
      number: '15550002222',
      phoneNumberId,
      accessTokenEncrypted: secrets.encrypt(stack.seed.accessToken),
      throughput: 20,
    });
    const c = await createCampaign(stack.url, stack.seed, { sender: `+${sender.number}` }); // 0.8 of 20 a second
    await listAudience(stack.url, stack.seed, c.id, rows(97, 400));
    await call('POST', `/${c.id}/start`, {});
    await until(async () => ((await progress(stack.url, stack.seed, c.id)).funnel.sent >= 20 ? true : undefined), 10_000, 'the campaign under way');

    const messages = stack.gateway.get(MessageRepository, { strict: false });
    const latencies: number[] = [];
    for (let i = 0; i < 6; i++) {
      const at = Date.now();
      const body = carouselBody(stack.seed, 3, number(98, i));
      body.notification.sender = `+${sender.number}`;
      const id = await triggerCarousel(stack.url, stack.seed, body);
      await until(async () => ((await messages.findForBot(stack.seed.botId, id))?.status === 'sent' ? true : undefined), 10_000, `trigger ${i} sent`);
      latencies.push(Date.now() - at);
      await sleep(300);
    }
    const p = await progress(stack.url, stack.seed, c.id);
    await call('POST', `/${c.id}/cancel`);
    console.log(`trigger latency behind a campaign at 20/s: ${latencies.join(', ')} ms; campaign sent ${p.funnel.sent}, pending ${p.recipients.pending}`);
    // The campaign (25 s of sending) still had a backlog when the last trigger had gone: no trigger waited for it.
    expect(p.recipients.pending).toBeGreaterThan(50);
    // A slot of the number within about a second, plus the trip through a loaded test host.
    expect(Math.max(...latencies)).toBeLessThan(3000);
    // Campaign and triggers together never above the number's 20 a second.
    const perSecond = new Map<number, number>();
    for (const a of stack.cloud.arrivals.filter((x) => x.phoneNumberId === phoneNumberId)) perSecond.set(Math.floor(a.at / 1000), (perSecond.get(Math.floor(a.at / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(20);
  }, 120_000);
});
