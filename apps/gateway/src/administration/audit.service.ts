import { BadRequestException, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuditEntry, AuditRepository, MembershipRepository } from '@platform/database';
import { AuditQueryDto } from '@platform/contracts';

export interface AuditEntryView {
  id: string;
  at: string;
  actor: string;
  userId: string | null;
  clientId: string | null;
  action: string;
  method: string;
  path: string;
  target: string | null;
  statusCode: number;
  ip: string;
  userAgent: string | null;
}

const DEFAULT_PAGE = 50;

/** The administrators' audit log: entries written for each administrator mutation and account change, read by bot. */
@Injectable()
export class AuditService {
  constructor(
    private readonly entries: AuditRepository,
    private readonly memberships: MembershipRepository,
  ) {}

  /** An entry for a request an administrator made (req.adminUser set by AdminTokenGuard). */
  async recordRequest(req: FastifyRequest, action: string, statusCode: number, target: string | null): Promise<void> {
    const who = req.adminUser!;
    await this.record(req, { userId: who.userId, botId: who.botId, clientId: who.clientId }, action, statusCode, target);
  }

  /** An entry for an account action (password, two-factor, invitation) outside the bot routes' guard. */
  async record(
    req: FastifyRequest,
    who: { userId: string; botId: string | null; clientId?: string | null; email?: string },
    action: string,
    statusCode: number,
    target: string | null = null,
  ): Promise<void> {
    const email = who.email ?? (await this.memberships.emailOf(who.userId)) ?? 'unknown';
    await this.entries.record({
      botId: who.botId,
      userId: who.userId,
      actorEmail: email,
      clientId: who.clientId ?? null,
      action,
      method: req.method,
      path: (req.url.split('?')[0] ?? req.url).slice(0, 500),
      target,
      statusCode,
      ip: req.ip,
      userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 300) : null,
    });
  }

  async list(botId: string, q: AuditQueryDto): Promise<{ entries: AuditEntryView[]; nextCursor: string | null }> {
    const limit = q.limit ? Number(q.limit) : DEFAULT_PAGE;
    const since = q.since ? new Date(q.since) : undefined;
    const until = q.until ? new Date(q.until) : undefined;
    if (since && until && since >= until) throw new BadRequestException('since must be before until');
    const rows = await this.entries.list(botId, {
      action: q.action,
      actor: q.actor?.trim().toLowerCase(),
      since,
      until,
      before: q.cursor ? decodeCursor(q.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { entries: page.map(view), nextCursor: rows.length > limit && last ? Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString('base64url') : null };
  }
}

function view(e: AuditEntry): AuditEntryView {
  return {
    id: e.id,
    at: e.createdAt.toISOString(),
    actor: e.actorEmail,
    userId: e.userId,
    clientId: e.clientId,
    action: e.action,
    method: e.method,
    path: e.path,
    target: e.target,
    statusCode: e.statusCode,
    ip: e.ip,
    userAgent: e.userAgent,
  };
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || !/^[0-9a-f-]{36}$/i.test(id) || Number.isNaN(createdAt.getTime())) throw new BadRequestException('cursor must be a cursor from a previous answer');
  return { createdAt, id };
}
