import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/client.js';
import { PrismaService } from '../prisma.service.js';

export interface BotStepRow {
  id: bigint;
  startedAt: Date;
  version: number;
  journey: string;
  node: string;
  kind: string;
  outcome: string;
  error: string | null;
  durationMs: number;
  sandboxMs: number | null;
  /** Builder tests only: the variables after the step (null for published versions' steps). */
  variables?: Prisma.JsonValue | null;
}

export interface BotStateRow {
  status: string;
  version: number | null;
  journey: string | null;
  node: string | null;
  variables: Prisma.JsonValue;
  updatedAt: Date;
}

/** What a hosted bot did in a conversation, as the API shows it: its steps (the trace) and where it is now. */
@Injectable()
export class BotTraceRepository {
  constructor(private readonly db: PrismaService) {}

  /** Up to `limit` steps of the conversation in the order they ran, after the `afterId` cursor. */
  steps(conversationId: string, afterId: bigint | null, limit: number): Promise<BotStepRow[]> {
    return this.db.botStep.findMany({
      where: { conversationId, ...(afterId !== null ? { id: { gt: afterId } } : {}) },
      orderBy: { id: 'asc' },
      take: limit,
      select: { id: true, startedAt: true, version: true, journey: true, node: true, kind: true, outcome: true, error: true, durationMs: true, sandboxMs: true },
    });
  }

  /** A builder test's steps after `afterId` with the variables each left (the try-it trace). */
  testSteps(conversationId: string, afterId: bigint | null, limit: number): Promise<BotStepRow[]> {
    return this.db.botStep.findMany({
      where: { conversationId, ...(afterId !== null ? { id: { gt: afterId } } : {}) },
      orderBy: { id: 'asc' },
      take: limit,
      select: { id: true, startedAt: true, version: true, journey: true, node: true, kind: true, outcome: true, error: true, durationMs: true, sandboxMs: true, variables: true },
    });
  }

  /** Null before the conversation's first turn. */
  state(conversationId: string): Promise<BotStateRow | null> {
    return this.db.botConversationState.findUnique({
      where: { conversationId },
      select: { status: true, version: true, journey: true, node: true, variables: true, updatedAt: true },
    });
  }
}
