import 'reflect-metadata';
import { jest } from '@jest/globals';
import { BadGatewayException, BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { SecretBox } from '@platform/crypto';
import type { ChannelSender, ChannelSenderRepository, Template, TemplateRepository } from '@platform/database';
import type { GraphPhoneNumberClient, MessagingLimitReader, PhoneNumberInfo, TemplateSyncService } from '@platform/whatsapp';
import { GraphApiError, NoBusinessAccountError } from '@platform/whatsapp';
import { WhatsAppAdminService } from './whatsapp-admin.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
const OTHER_BOT = '1c7f4d63-a5b6-4e1f-8f88-8e9f6c1c3d22';
const T0 = Date.parse('2026-12-16T10:00:00Z');
const TOKEN = 'EAAGm0PX4ZCpsBA-token';
const box = new SecretBox(`k:${Buffer.alloc(32, 3).toString('base64')}`);

/** ChannelSenderRepository in memory; the Graph API, template sync and limit reader are jest.fn. */
function setup() {
  const rows: ChannelSender[] = [];
  const failures = new Map<string, { failures: number; lastErrorAt: Date | null; lastErrorCode: string | null; lastErrorText: string | null }>();
  const mine = (botId: string, id: string) => rows.find((r) => r.id === id && r.botId === botId && !r.deletedAt);
  const failureSince: Date[] = [];
  const senderRepo = {
    listByBot: async (botId: string) => rows.filter((r) => r.botId === botId && !r.deletedAt),
    failureStats: async (_botId: string, since: Date) => {
      failureSince.push(since);
      return failures;
    },
    findByNumber: async (botId: string, channel: string, number: string) => rows.find((r) => r.botId === botId && r.channel === channel && r.number === number && !r.deletedAt) ?? null,
    findById: async (id: string) => rows.find((r) => r.id === id) ?? null,
    create: async (d: Partial<ChannelSender>) => {
      const row = {
        ...d,
        id: `00000000-0000-4000-8000-${String(rows.length).padStart(12, '0')}`,
        messagingLimitTier: null,
        messagingLimitReadAt: null,
        createdAt: new Date(T0),
        deletedAt: null,
      } as ChannelSender;
      rows.push(row);
      return row;
    },
    update: async (botId: string, id: string, d: Partial<ChannelSender>) => {
      const row = mine(botId, id);
      return row ? Object.assign(row, d) : null;
    },
    softDelete: async (botId: string, id: string, at: Date) => {
      const row = mine(botId, id);
      if (row) row.deletedAt = at;
      return !!row;
    },
  } as unknown as ChannelSenderRepository;
  const templates: Template[] = [];
  const templateRepo = { listByBot: async (botId: string) => templates.filter((t) => t.botId === botId) } as unknown as TemplateRepository;
  const graph = { check: jest.fn(async (id: string): Promise<PhoneNumberInfo> => ({ id, whatsapp_business_manager_messaging_limit: 'TIER_2K' })) };
  const sync = { syncBot: jest.fn(async () => ({ created: 1, updated: 0, removed: 0 })) };
  const limits = {
    store: jest.fn(async (senderId: string) => {
      const row = rows.find((r) => r.id === senderId)!;
      row.messagingLimitTier = 'TIER_2K';
      row.messagingLimitReadAt = new Date(T0);
    }),
    refreshBot: jest.fn(async () => {}),
  };
  const service = new WhatsAppAdminService(
    senderRepo,
    templateRepo,
    box,
    sync as unknown as TemplateSyncService,
    graph as unknown as GraphPhoneNumberClient,
    limits as unknown as MessagingLimitReader,
  );
  return { service, rows, failures, failureSince, templates, graph, sync, limits };
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

describe('WhatsAppAdminService', () => {
  afterEach(() => jest.useRealTimers());

  describe('addSender', () => {
    it('checks the token with Meta, stores it encrypted, and answers the number with its limit tier', async () => {
      const { service, rows, graph, limits } = setup();
      const view = await service.addSender(BOT, { number: '+4915112345678', phoneNumberId: '1098765432', accessToken: TOKEN, wabaId: '2233445566', throughput: 20 });
      expect(graph.check).toHaveBeenCalledWith('1098765432', TOKEN);
      expect(view).toEqual({
        id: rows[0].id,
        channel: 'whatsapp',
        number: '+4915112345678',
        phoneNumberId: '1098765432',
        accessTokenSet: true,
        wabaId: '2233445566',
        throughput: 20,
        messagingLimitTier: 'TIER_2K',
        messagingLimitReadAt: new Date(T0).toISOString(),
        createdAt: new Date(T0).toISOString(),
      });
      expect(JSON.stringify(view)).not.toContain(TOKEN);
      expect(rows[0].number).toBe('4915112345678');
      expect(rows[0].accessTokenEncrypted).not.toContain(TOKEN);
      expect(box.decrypt(rows[0].accessTokenEncrypted)).toBe(TOKEN);
      expect(limits.store).toHaveBeenCalledWith(rows[0].id, { id: '1098765432', whatsapp_business_manager_messaging_limit: 'TIER_2K' });
    });

    it('refuses a number the bot already sends from (409), with or without +', async () => {
      const { service, graph, rows } = setup();
      await service.addSender(BOT, { number: '4915112345678', phoneNumberId: '1', accessToken: TOKEN });
      const err = await rejection(service.addSender(BOT, { number: '+4915112345678', phoneNumberId: '2', accessToken: TOKEN }));
      expect(err).toBeInstanceOf(ConflictException);
      expect(err.message).toBe('number +4915112345678 is already a sender of this bot');
      expect(graph.check).toHaveBeenCalledTimes(1);
      // Another bot may use the same number.
      await expect(service.addSender(OTHER_BOT, { number: '+4915112345678', phoneNumberId: '2', accessToken: TOKEN })).resolves.toMatchObject({ number: '+4915112345678' });
      expect(rows).toHaveLength(2);
    });

    it('refuses a token with spaces or line breaks before asking Meta', async () => {
      const { service, graph, rows } = setup();
      const around = await rejection(service.addSender(BOT, { number: '4915112345678', phoneNumberId: '1', accessToken: `${TOKEN}\n` }));
      expect(around).toBeInstanceOf(BadRequestException);
      expect(around.message).toBe('accessToken has spaces or line breaks at its start or end; paste the token alone');
      const inside = await rejection(service.addSender(BOT, { number: '4915112345678', phoneNumberId: '1', accessToken: 'EAAG m0PX' }));
      expect(inside.message).toBe('accessToken contains spaces or line breaks; paste the token alone');
      expect(graph.check).not.toHaveBeenCalled();
      expect(rows).toHaveLength(0);
    });

    it('answers 400 when Meta refuses the token and 502 when Meta cannot be asked, saving nothing', async () => {
      const { service, graph, rows } = setup();
      graph.check.mockRejectedValueOnce(new GraphApiError(401, 'Invalid OAuth access token'));
      const refused = await rejection(service.addSender(BOT, { number: '4915112345678', phoneNumberId: '1098765432', accessToken: TOKEN }));
      expect(refused).toBeInstanceOf(BadRequestException);
      expect(refused.message).toBe('accessToken was refused by the WhatsApp Cloud API for phone-number id 1098765432: Invalid OAuth access token');
      graph.check.mockRejectedValueOnce(new GraphApiError(0, 'ECONNRESET'));
      const down = await rejection(service.addSender(BOT, { number: '4915112345678', phoneNumberId: '1098765432', accessToken: TOKEN }));
      expect(down).toBeInstanceOf(BadGatewayException);
      expect(down.message).toBe('The access token could not be checked: WhatsApp Cloud API unreachable: ECONNRESET. Nothing was saved; try again');
      graph.check.mockRejectedValueOnce(new GraphApiError(503, 'busy'));
      await expect(service.addSender(BOT, { number: '4915112345678', phoneNumberId: '1098765432', accessToken: TOKEN })).rejects.toBeInstanceOf(BadGatewayException);
      const bug = new TypeError('not a Graph error');
      graph.check.mockRejectedValueOnce(bug);
      await expect(service.addSender(BOT, { number: '4915112345678', phoneNumberId: '1098765432', accessToken: TOKEN })).rejects.toBe(bug);
      expect(rows).toHaveLength(0);
    });
  });

  describe('updateSender', () => {
    it('checks a new token against the stored id, and a new id against the stored token', async () => {
      const { service, rows, graph, limits } = setup();
      const { id } = await service.addSender(BOT, { number: '4915112345678', phoneNumberId: '111', accessToken: TOKEN });
      graph.check.mockClear();
      await service.updateSender(BOT, id, { accessToken: 'EAAnewtoken' });
      expect(graph.check).toHaveBeenLastCalledWith('111', 'EAAnewtoken');
      expect(box.decrypt(rows[0].accessTokenEncrypted)).toBe('EAAnewtoken');
      await service.updateSender(BOT, id, { phoneNumberId: '222' });
      expect(graph.check).toHaveBeenLastCalledWith('222', 'EAAnewtoken');
      expect(rows[0].phoneNumberId).toBe('222');
      expect(limits.store).toHaveBeenCalledTimes(3);
    });

    it('changes throughput or wabaId without asking Meta', async () => {
      const { service, graph, limits } = setup();
      const { id } = await service.addSender(BOT, { number: '4915112345678', phoneNumberId: '111', accessToken: TOKEN });
      graph.check.mockClear();
      limits.store.mockClear();
      await expect(service.updateSender(BOT, id, { throughput: 5, wabaId: '998877' })).resolves.toMatchObject({ throughput: 5, wabaId: '998877', phoneNumberId: '111' });
      expect(graph.check).not.toHaveBeenCalled();
      expect(limits.store).not.toHaveBeenCalled();
    });

    it("answers 404 for an unknown, deleted or other bot's sender and for an id that is no UUID", async () => {
      const { service, graph } = setup();
      const { id } = await service.addSender(BOT, { number: '4915112345678', phoneNumberId: '111', accessToken: TOKEN });
      graph.check.mockClear();
      for (const [botId, senderId, dto] of [
        [OTHER_BOT, id, { accessToken: 'EAAx' }],
        [OTHER_BOT, id, { throughput: 3 }],
        [BOT, 'not-a-uuid', { accessToken: 'EAAx' }],
        [BOT, 'not-a-uuid', { throughput: 3 }],
        [BOT, '9f9f9f9f-0000-4000-8000-000000000000', { phoneNumberId: '3' }],
      ] as const) {
        const err = await rejection(service.updateSender(botId, senderId, dto));
        expect(err).toBeInstanceOf(NotFoundException);
        expect(err.message).toBe(`No sender ${senderId} for this bot`);
      }
      await service.deleteSender(BOT, id);
      await expect(service.updateSender(BOT, id, { accessToken: 'EAAx' })).rejects.toBeInstanceOf(NotFoundException);
      expect(graph.check).not.toHaveBeenCalled();
    });

    it('keeps the old token when Meta refuses the new one', async () => {
      const { service, rows, graph } = setup();
      const { id } = await service.addSender(BOT, { number: '4915112345678', phoneNumberId: '111', accessToken: TOKEN });
      graph.check.mockRejectedValueOnce(new GraphApiError(400, 'bad token'));
      await expect(service.updateSender(BOT, id, { accessToken: 'EAAbad' })).rejects.toBeInstanceOf(BadRequestException);
      await expect(service.updateSender(BOT, id, { accessToken: ' EAAbad' })).rejects.toThrow('accessToken has spaces or line breaks at its start or end; paste the token alone');
      expect(box.decrypt(rows[0].accessTokenEncrypted)).toBe(TOKEN);
    });
  });

  describe('deleteSender', () => {
    it('hides the sender from the list once; a second delete, a foreign or malformed id is 404', async () => {
      const { service } = setup();
      const { id } = await service.addSender(BOT, { number: '4915112345678', phoneNumberId: '111', accessToken: TOKEN });
      await expect(service.deleteSender(OTHER_BOT, id)).rejects.toBeInstanceOf(NotFoundException);
      await service.deleteSender(BOT, id);
      await expect(service.senders(BOT)).resolves.toEqual([]);
      await expect(service.deleteSender(BOT, id)).rejects.toThrow(`No sender ${id} for this bot`);
      await expect(service.deleteSender(BOT, 'x')).rejects.toBeInstanceOf(NotFoundException);
    });
  });

  describe('senders', () => {
    it("lists the bot's senders with the failures of the last 24 hours and the newest error", async () => {
      jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate'] });
      const { service, failures, failureSince } = setup();
      const a = await service.addSender(BOT, { number: '4915112345678', phoneNumberId: '111', accessToken: TOKEN });
      const b = await service.addSender(BOT, { number: '4915187654321', phoneNumberId: '222', accessToken: TOKEN });
      failures.set(a.id, { failures: 3, lastErrorAt: new Date(T0 - 60_000), lastErrorCode: '131047', lastErrorText: 'Re-engagement message' });
      const list = await service.senders(BOT);
      expect(failureSince).toEqual([new Date(T0 - 24 * 3600 * 1000)]);
      expect(list.map((s) => [s.id, s.recentFailures, s.lastError])).toEqual([
        [a.id, 3, { code: '131047', text: 'Re-engagement message', at: new Date(T0 - 60_000).toISOString() }],
        [b.id, 0, null],
      ]);
    });
  });

  describe('templates', () => {
    it('lists templates as synced or manual', async () => {
      const { service, templates } = setup();
      const base = {
        botId: BOT,
        channel: 'whatsapp',
        language: 'en',
        category: 'MARKETING',
        cardCount: null,
        cardHeaderFormat: null,
        status: 'APPROVED',
        bodyParameterCount: 1,
        cards: null,
        updatedAt: new Date(T0),
        createdAt: new Date(T0),
      };
      templates.push({ ...base, id: 't1', providerName: 'welcome', providerTemplateId: '555' } as unknown as Template);
      templates.push({ ...base, id: 't2', providerName: 'hand_made', providerTemplateId: null } as unknown as Template);
      const list = await service.templates(BOT);
      expect(list.map((t) => [t.name, t.source])).toEqual([
        ['welcome', 'synced'],
        ['hand_made', 'manual'],
      ]);
      expect(list[0]).toMatchObject({ id: 't1', language: 'en', status: 'APPROVED', bodyParameterCount: 1, updatedAt: new Date(T0).toISOString() });
    });

    it('syncs then refreshes the limit tiers; no WABA is 400 and a Meta error 502, without refreshing', async () => {
      const { service, sync, limits } = setup();
      await expect(service.syncTemplates(BOT)).resolves.toEqual({ created: 1, updated: 0, removed: 0 });
      expect(limits.refreshBot).toHaveBeenCalledWith(BOT);
      limits.refreshBot.mockClear();
      sync.syncBot.mockRejectedValueOnce(new NoBusinessAccountError(BOT));
      const none = await rejection(service.syncTemplates(BOT));
      expect(none).toBeInstanceOf(BadRequestException);
      expect(none.message).toBe('no WhatsApp sender of this bot has a wabaId (set it with PATCH .../whatsapp/senders/<id>)');
      sync.syncBot.mockRejectedValueOnce(new GraphApiError(403, 'no permission'));
      const refused = await rejection(service.syncTemplates(BOT));
      expect(refused).toBeInstanceOf(BadGatewayException);
      expect(refused.message).toBe('WhatsApp Cloud API answered 403: no permission');
      expect(limits.refreshBot).not.toHaveBeenCalled();
    });
  });
});
