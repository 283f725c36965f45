import 'reflect-metadata';
import { BadRequestException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuditEntry, AuditEntryData, AuditFilter, AuditRepository, MembershipRepository } from '@platform/database';
import { AuditService } from './audit.service.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';

function setup() {
  const rows: AuditEntry[] = [];
  const filters: AuditFilter[] = [];
  const repo = {
    record: async (d: AuditEntryData) => {
      const row = { ...d, id: `00000000-0000-4000-8000-${String(rows.length).padStart(12, '0')}`, createdAt: new Date(Date.UTC(2026, 11, 16, 10, rows.length)) } as AuditEntry;
      rows.unshift(row);
      return row;
    },
    list: async (_botId: string, f: AuditFilter) => {
      filters.push(f);
      return rows.filter((r) => !f.before || r.createdAt < f.before.createdAt).slice(0, f.limit);
    },
  } as unknown as AuditRepository;
  const memberships = { emailOf: async () => 'ann@example.com' } as unknown as MembershipRepository;
  return { service: new AuditService(repo, memberships), rows, filters };
}

const request = (over: Partial<FastifyRequest> = {}) =>
  ({
    method: 'DELETE',
    url: '/v1/bots/b/api-keys/k?x=1',
    ip: '203.0.113.7',
    headers: { 'user-agent': 'curl/8' },
    adminUser: { userId: 'u1', botId: BOT, clientId: null },
    ...over,
  }) as unknown as FastifyRequest;

describe('AuditService', () => {
  it('records who (e-mail looked up), what, the path without its query, the IP as Fastify trusts it, and the result', async () => {
    const { service, rows } = setup();
    await service.recordRequest(request(), 'api-keys.delete', 200, 'keyId=k');
    expect(rows[0]).toMatchObject({
      botId: BOT,
      userId: 'u1',
      actorEmail: 'ann@example.com',
      action: 'api-keys.delete',
      method: 'DELETE',
      path: '/v1/bots/b/api-keys/k',
      target: 'keyId=k',
      statusCode: 200,
      ip: '203.0.113.7',
      userAgent: 'curl/8',
    });
  });

  it('pages newest first with a cursor, and passes filters on lower-cased', async () => {
    const { service, filters } = setup();
    for (let i = 0; i < 3; i++) await service.recordRequest(request(), `api-keys.create`, 201, null);
    const first = await service.list(BOT, { limit: '2', actor: ' Ann@Example.com ', action: 'api-keys' });
    expect(first.entries).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    expect(filters[0]).toMatchObject({ actor: 'ann@example.com', action: 'api-keys', limit: 3 });
    const second = await service.list(BOT, { limit: '2', cursor: first.nextCursor! });
    expect(second.entries).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not give and since after until, naming them', async () => {
    const { service } = setup();
    await expect(service.list(BOT, { cursor: 'bm9wZQ' })).rejects.toThrow(new BadRequestException('cursor must be a cursor from a previous answer'));
    await expect(service.list(BOT, { since: '2026-12-02T00:00:00Z', until: '2026-12-01T00:00:00Z' })).rejects.toThrow('since must be before until');
  });
});
