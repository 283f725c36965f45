import { jest } from '@jest/globals';
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { HttpCaller, TurnRequest } from '@platform/bot-engine';
import type { CoreEnv, DatabaseEnv } from '@platform/config';
import type { BotDefinition, BotOutput, BotRunState, BotStepRecord, BotTurnInput, BotTurnResult, FunctionRunner } from '@platform/contracts';
import { ReplyDelivery, type SdkEventStore } from '@platform/conversations';
import type { SecretBox } from '@platform/crypto';
import {
  replyContent,
  type BotOutboxItem,
  type BotRunConversation,
  type BotRunRepository,
  type ConversationMessageRow,
  type ConversationRepository,
  type HandoverItem,
  type LockedBotTurn,
  type PendingBotInput,
  type ProcessedBotInput,
} from '@platform/database';
import type { ConversationReplyQueue } from '@platform/queue';
import { BotSecrets } from '../ports/bot-secrets.js';
import { BotMetrics } from './bot-metrics.js';
import { BotTurnService } from './bot-turn.service.js';
import type { HandoffEvents } from './handoff-events.js';
import { OutboxHandover } from './outbox-handover.js';
import { ReplyOrderWaitError } from './reply-order-wait.error.js';
import type { TurnEngine } from './turn-engine.js';
import { TurnSlots } from './turn-slots.js';

const BOT = randomUUID();
const DEFINITION = { schemaVersion: 1, startJourney: 'main', variables: [], journeys: [] } as unknown as BotDefinition;

/**
 * BotRunRepository and the ConversationRepository statements the reply path uses, in memory. A turn
 * (withTurn) holds the conversation's lock and writes into a copy that replaces the stored data only
 * when the work returns: a throw leaves everything as it was, as the transaction's rollback does.
 */
class FakeStore {
  conversations = new Map<string, BotRunConversation>();
  states = new Map<string, BotRunState | null>();
  /** Conversations an agent took over before any journey ran. */
  bareHandoffs = new Set<string>();
  inputs: Array<{ seq: bigint; conversationId: string; input: BotTurnInput; processed: boolean }> = [];
  outboxItems: BotOutboxItem[] = [];
  messages: ConversationMessageRow[] = [];
  steps: Array<BotStepRecord & { inputSeq: bigint; version: number }> = [];
  published: number | null = 1;
  versions = new Map<number, BotDefinition>([
    [1, DEFINITION],
    [2, DEFINITION],
  ]);
  /** Times withTurn took the lock; a test's hook runs inside the lock. */
  private locks = new Map<string, Promise<unknown>>();
  private seq = 0n;
  /** Each conversation's last place handed out (conversation_positions): a message's place in its own conversation, 1 for the first. */
  private positions = new Map<string, number>();

  conversation(channel: 'web' | 'whatsapp', extra: Partial<BotRunConversation> = {}): BotRunConversation {
    const c = { id: randomUUID(), botId: BOT, channel, userId: `user-${this.conversations.size}`, senderId: 's1', lastInboundAt: new Date(), ...extra };
    this.conversations.set(c.id, c);
    return c;
  }

  addInput(conversationId: string, input: BotTurnInput): void {
    this.inputs.push({ seq: ++this.seq, conversationId, input, processed: false });
  }

  /** A message committed now, at the conversation's next place unless `position` is given (a turn's, committed with the turn). */
  addMessage(conversationId: string, type: string, content: object, position?: number): ConversationMessageRow {
    if (position === undefined) this.positions.set(conversationId, (position = (this.positions.get(conversationId) ?? 0) + 1));
    const row: ConversationMessageRow = {
      id: randomUUID(),
      seq: ++this.seq,
      position,
      conversationId,
      direction: 'outbound',
      type,
      content,
      providerMessageId: null,
      status: 'queued',
      attempts: 0,
      lastErrorCode: null,
      lastErrorText: null,
      webhookSettledAt: null,
      createdAt: new Date(),
    };
    this.messages.push(row);
    return row;
  }

  /** The payload of the conversation's latest session start before `seq` (LockedBotTurn.sessionPayload). */
  sessionPayload(conversationId: string, seq: bigint): string | null {
    const start = this.inputs.filter((i) => i.conversationId === conversationId && i.seq < seq && i.input.kind === 'start').at(-1);
    return start?.input.kind === 'start' ? start.input.payload : null;
  }

  /** Times the handover read the outbox back. */
  handoverReads = 0;

  readonly runs = {
    handover: async (conversationId: string) => {
      this.handoverReads++;
      const conversation = this.conversations.get(conversationId);
      if (!conversation) return null;
      const items = this.outboxItems
        .filter((i) => i.conversationId === conversationId)
        .map((i) => (i.kind === 'reply' ? { ...i, message: this.messages.find((m) => m.id === i.messageId) ?? null } : i));
      return { conversation, items };
    },
    completeWebHandover: async (outboxIds: readonly string[], sentMessageIds: readonly string[]) => {
      this.outboxItems = this.outboxItems.filter((i) => !outboxIds.includes(i.id));
      for (const id of sentMessageIds) await this.conversationRepo.markSent(id, `web:${id}`);
    },
    deleteOutboxItem: async (id: string) => void (this.outboxItems = this.outboxItems.filter((i) => i.id !== id)),
    hasUnsentBefore: async (conversationId: string, seq: bigint) =>
      this.messages.some((m) => m.conversationId === conversationId && m.seq < seq && (m.status === 'queued' || m.status === 'processing')),
    withTurn: async <T>(conversationId: string, botId: string, work: (turn: LockedBotTurn) => Promise<T>): Promise<T | null> => {
      const before = this.locks.get(conversationId) ?? Promise.resolve();
      const run = before.then(() => this.turn(conversationId, botId, work));
      this.locks.set(
        conversationId,
        run.catch(() => undefined),
      );
      return run;
    },
  };

  readonly conversationRepo = {
    markSent: async (id: string, providerMessageId: string) => {
      const row = this.messages.find((m) => m.id === id && (m.status === 'queued' || m.status === 'processing'));
      if (row) Object.assign(row, { status: 'sent', providerMessageId });
    },
    markAttemptFailed: async (id: string, code: string, text: string, final: boolean) => {
      const row = this.messages.find((m) => m.id === id && (m.status === 'queued' || m.status === 'processing'));
      if (row) Object.assign(row, { lastErrorCode: code, lastErrorText: text, ...(final ? { status: 'failed' } : {}) });
    },
  };

  private async turn<T>(conversationId: string, botId: string, work: (turn: LockedBotTurn) => Promise<T>): Promise<T | null> {
    if (!this.conversations.has(conversationId)) return null;
    // The transaction's view: writes go to copies, kept only when the work returns.
    const pending = {
      state: this.states.get(conversationId) ?? null,
      bareHandoff: this.bareHandoffs.has(conversationId),
      outbox: [...this.outboxItems],
      messages: [...this.messages],
      steps: [...this.steps],
      processed: new Set<bigint>(),
      // As the trigger's counter: taken by the transaction, given back when it rolls back.
      lastPosition: this.positions.get(conversationId) ?? 0,
    };
    const inputs: PendingBotInput[] = this.inputs.filter((i) => i.conversationId === conversationId && !i.processed).map((i) => ({ seq: i.seq, input: i.input }));
    const turn: LockedBotTurn = {
      state: pending.state,
      bareHandoff: this.bareHandoffs.has(conversationId),
      inputs,
      conversation: this.conversations.get(conversationId)!,
      outboxWaiting: pending.outbox.some((o) => o.conversationId === conversationId),
      skip: async (input: PendingBotInput) => void pending.processed.add(input.seq),
      publishedVersion: async () => this.published,
      definition: async (version) => this.versions.get(version) ?? null,
      sealedSecrets: async () => [{ name: 'TOKEN', valueEncrypted: 'sealed:t0ken' }],
      sessionPayload: async (seq: bigint) => this.sessionPayload(conversationId, seq),
      record: async (input: PendingBotInput, processed: ProcessedBotInput) => {
        pending.state = processed.state;
        pending.bareHandoff = false;
        const written: HandoverItem[] = [];
        for (const output of processed.outputs) {
          if (output.kind === 'reply') {
            const { type, content } = replyContent(output.reply);
            const row = { ...this.addMessage(conversationId, type, content, ++pending.lastPosition) };
            this.messages.pop();
            pending.messages.push(row);
            const item = { id: randomUUID(), seq: ++this.seq, conversationId, botId, kind: 'reply' as const, messageId: row.id };
            pending.outbox.push(item);
            written.push({ ...item, message: { ...row } });
          } else if (output.kind === 'event') {
            const item = { id: randomUUID(), seq: ++this.seq, conversationId, botId, kind: 'event' as const, event: output.event as never };
            pending.outbox.push(item);
            written.push(item);
          } else {
            const item = { id: randomUUID(), seq: ++this.seq, conversationId, botId, kind: 'handoff' as const, reason: output.reason ?? null };
            pending.outbox.push(item);
            written.push(item);
          }
        }
        if (processed.version !== null) pending.steps.push(...processed.steps.map((s) => ({ ...s, inputSeq: input.seq, version: processed.version! })));
        pending.processed.add(input.seq);
        return written;
      },
    };
    const result = await work(turn);
    this.states.set(conversationId, pending.state);
    if (!pending.bareHandoff) this.bareHandoffs.delete(conversationId);
    this.outboxItems = pending.outbox;
    this.messages = pending.messages;
    this.steps = pending.steps;
    this.positions.set(conversationId, pending.lastPosition);
    for (const i of this.inputs) if (pending.processed.has(i.seq)) i.processed = true;
    return result;
  }
}

/** An engine that echoes each message (and counts messages in `variables.n`), as the turn's state says. */
function echoEngine(calls: TurnRequest[], extra: (req: TurnRequest) => BotOutput[] = () => []) {
  return {
    run: async (req: TurnRequest): Promise<BotTurnResult> => {
      calls.push(req);
      const n = ((req.state?.variables.n as number | undefined) ?? 0) + 1;
      const text = req.input.kind === 'message' ? (req.input.text ?? '') : req.input.kind;
      const step: BotStepRecord = { journey: 'main', node: 'ask', kind: 'question', startedAt: new Date(), durationMs: 1, outcome: 'waiting' };
      return {
        state: { version: req.version, journey: 'main', node: 'ask', status: 'waiting', variables: { n }, retries: 0, payload: null },
        outputs: [{ kind: 'reply', reply: { text: `echo ${text} #${n}` } }, ...extra(req)],
        steps: [step],
        logs: [],
      };
    },
  } as unknown as TurnEngine;
}

function setup(options: { engine?: (calls: TurnRequest[]) => TurnEngine; appendFails?: () => boolean; onQueued?: (messageId: string) => void; tellFails?: () => boolean } = {}) {
  const store = new FakeStore();
  const calls: TurnRequest[] = [];
  const appended: Array<{ userId: string; code: string; data: string; dedupeId?: string }> = [];
  const typings: Array<{ userId: string; typing: boolean }> = [];
  const seen = new Set<string>();
  const events = {
    append: async (_botId: string, userId: string, event: { code: string; data: { code: string; data: string } }, opts: { dedupeId?: string } = {}) => {
      if (options.appendFails?.()) throw new Error('Redis is down');
      if (opts.dedupeId && seen.has(opts.dedupeId)) return { id: '0-1', live: 0, duplicate: true };
      if (opts.dedupeId) seen.add(opts.dedupeId);
      // The chat page's typing signals are kept apart: the outputs' order is what most tests read.
      if (event.data.code === 'conversation.typing') return (typings.push({ userId, ...(JSON.parse(event.data.data) as { typing: boolean }) }), { id: '0-2', live: 0, duplicate: false });
      appended.push({ userId, code: event.data.code, data: event.data.data, dedupeId: opts.dedupeId });
      return { id: '0-1', live: 0, duplicate: false };
    },
    // One script call: all of them or, when Redis fails, none.
    appendMany: async (_botId: string, userId: string, items: Array<{ event: { code: string; data: { code: string; data: string } }; dedupeId?: string }>) => {
      if (options.appendFails?.()) throw new Error('Redis is down');
      for (const { event, dedupeId } of items) {
        if (dedupeId && seen.has(dedupeId)) continue;
        if (dedupeId) seen.add(dedupeId);
        if (event.data.code === 'conversation.typing') typings.push({ userId, ...(JSON.parse(event.data.data) as { typing: boolean }) });
        else appended.push({ userId, code: event.data.code, data: event.data.data, dedupeId });
      }
      return items.map(() => '0-1');
    },
  } as unknown as SdkEventStore;
  const jobs: string[] = [];
  const queue = {
    add: async (_name: string, data: { messageId: string }, opts: { jobId: string }) => {
      if (!jobs.includes(opts.jobId)) jobs.push(opts.jobId);
      options.onQueued?.(data.messageId);
      return {};
    },
  } as unknown as ConversationReplyQueue;
  const delivery = new ReplyDelivery(store.conversationRepo as unknown as ConversationRepository, events, { REDIS_COMMAND_TIMEOUT_MS: 1000 } as CoreEnv, queue);
  const runs = store.runs as unknown as BotRunRepository;
  // The conversation.handoff events told (HandoffEvents: the callback queue and the lifecycle stream, one job per id).
  const told: Array<{ conversationId: string; id: string; reason: string | null }> = [];
  const handoffs = {
    handoff: async (conversation: BotRunConversation, id: string, reason: string | null) => {
      if (options.tellFails?.()) throw new Error('Redis is down');
      told.push({ conversationId: conversation.id, id, reason });
    },
  } as unknown as HandoffEvents;
  const box = { decrypt: (s: string) => s.replace(/^sealed:/, '') } as unknown as SecretBox;
  const service = new BotTurnService(
    runs,
    options.engine?.(calls) ?? echoEngine(calls),
    new OutboxHandover(runs, delivery, events, handoffs),
    new BotSecrets(box),
    new TurnSlots({ DATABASE_POOL_SIZE: 10 } as DatabaseEnv),
    new BotMetrics(),
    {} as FunctionRunner,
    {} as HttpCaller,
  );
  return { store, service, calls, appended, jobs, typings, told };
}

const texts = (appended: Array<{ data: string }>) => appended.map((a) => (JSON.parse(a.data) as { content: { text?: string } }).content.text);
/** The conversation.message events' seq: the message's place in its own conversation, what the chat page orders by. */
const seqs = (appended: Array<{ code: string; data: string }>) => appended.filter((a) => a.code === 'conversation.message').map((a) => (JSON.parse(a.data) as { seq: unknown }).seq);

describe('BotTurnService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it("runs a conversation's waiting inputs in order, each with the state the one before left, and hands the replies over in order", async () => {
    const { store, service, calls, appended } = setup();
    const c = store.conversation('web');
    for (const text of ['a', 'b', 'c']) store.addInput(c.id, { kind: 'message', text });

    const summary = await service.take({ botId: BOT, conversationId: c.id });

    expect(summary).toMatchObject({ found: true, inputs: 3, steps: 3, outputs: 3, handedOver: 3 });
    expect(calls.map((r) => [r.version, r.state?.variables.n ?? null])).toEqual([
      [1, null],
      [1, 1],
      [1, 2],
    ]);
    expect(texts(appended)).toEqual(['echo a #1', 'echo b #2', 'echo c #3']);
    expect(seqs(appended)).toEqual(['1', '2', '3']);
    expect(appended.every((a) => a.code === 'conversation.message' && a.userId === c.userId)).toBe(true);
    expect(store.messages.map((m) => m.status)).toEqual(['sent', 'sent', 'sent']);
    expect(store.outboxItems).toEqual([]);
    expect(store.inputs.every((i) => i.processed)).toBe(true);
    expect(store.steps.map((s) => s.inputSeq)).toEqual(store.inputs.map((i) => i.seq));
    expect(store.handoverReads).toBe(0); // on web, nothing older waited: the turn's own items went without reading the outbox back
  });

  it('keeps a running journey on the version it started on; a conversation with none starts on the published one', async () => {
    const { store, service, calls } = setup();
    const running = store.conversation('web');
    store.states.set(running.id, { version: 1, journey: 'main', node: 'ask', status: 'waiting', variables: { n: 5 }, retries: 0, payload: null });
    const fresh = store.conversation('web');
    store.published = 2;
    store.addInput(running.id, { kind: 'message', text: 'x' });
    store.addInput(fresh.id, { kind: 'message', text: 'y' });

    await service.take({ botId: BOT, conversationId: running.id });
    await service.take({ botId: BOT, conversationId: fresh.id });

    expect(calls.map((r) => r.version)).toEqual([1, 2]);
    expect(store.steps.map((s) => s.version)).toEqual([1, 2]);
  });

  it('marks inputs processed without an answer when the bot has no published version, calling no engine', async () => {
    const { store, service, calls, appended, typings } = setup();
    store.published = null;
    const c = store.conversation('web');
    store.addInput(c.id, { kind: 'start', payload: null });

    expect(await service.take({ botId: BOT, conversationId: c.id })).toMatchObject({ inputs: 1, steps: 0, outputs: 0 });
    expect(calls).toEqual([]);
    expect(appended).toEqual([]);
    expect(typings).toEqual([{ userId: c.userId, typing: false, at: expect.any(String) }]); // the turn is over, although the bot said nothing: the page's "typing…" goes
    expect(store.inputs[0].processed).toBe(true);
  });

  it('hands over what an earlier run committed but did not hand over before running new inputs', async () => {
    const { store, service, appended } = setup();
    const c = store.conversation('web');
    const left = store.addMessage(c.id, 'text', { text: 'left behind' });
    store.outboxItems.push({ id: randomUUID(), seq: 0n, conversationId: c.id, botId: BOT, kind: 'reply', messageId: left.id });
    store.addInput(c.id, { kind: 'message', text: 'new' });

    await service.take({ botId: BOT, conversationId: c.id });

    expect(texts(appended)).toEqual(['left behind', 'echo new #1']);
    expect(seqs(appended)).toEqual(['1', '2']);
    expect(store.handoverReads).toBe(1);
    expect(store.outboxItems).toEqual([]);
  });

  it("numbers each conversation's replies in that conversation (the events' seq), after the messages it has; a turn that failed gives its places back", async () => {
    let failing = true;
    const { store, service, appended } = setup({
      engine: (calls) => {
        const echo = echoEngine(calls);
        // The second input fails once, after the first one's reply was written in the same turn.
        const fails = (req: TurnRequest) => failing && req.input.kind === 'message' && req.input.text === 'z';
        return { run: async (req: TurnRequest) => (fails(req) ? Promise.reject(new Error('Postgres went away')) : echo.run(req)) } as unknown as TurnEngine;
      },
    });
    const a = store.conversation('web');
    const b = store.conversation('web');
    store.addMessage(a.id, 'text', { text: 'an earlier message' });
    store.addInput(a.id, { kind: 'message', text: 'x' });
    store.addInput(b.id, { kind: 'message', text: 'y' });
    store.addInput(b.id, { kind: 'message', text: 'z' });

    await expect(service.take({ botId: BOT, conversationId: b.id })).rejects.toThrow('Postgres went away');
    failing = false;
    await service.take({ botId: BOT, conversationId: a.id });
    await service.take({ botId: BOT, conversationId: b.id });

    expect(appended.map((e) => [e.userId, (JSON.parse(e.data) as { seq: unknown }).seq])).toEqual([
      [a.userId, '2'],
      [b.userId, '1'],
      [b.userId, '2'],
    ]);
    expect(store.messages.filter((m) => m.conversationId === b.id).map((m) => m.position)).toEqual([1, 2]);
  });

  it('leaves everything as it was when the engine throws: the inputs wait for the retry, nothing is handed over', async () => {
    const failing = () => ({ run: async () => Promise.reject(new Error('Postgres went away')) }) as unknown as TurnEngine;
    const { store, service, appended } = setup({ engine: failing });
    const c = store.conversation('web');
    store.addInput(c.id, { kind: 'message', text: 'a' });

    await expect(service.take({ botId: BOT, conversationId: c.id })).rejects.toThrow('Postgres went away');
    expect(store.inputs[0].processed).toBe(false);
    expect(store.outboxItems).toEqual([]);
    expect(store.messages).toEqual([]);
    expect(appended).toEqual([]);
  });

  it('fails the job when Redis refuses a handover, keeping the outbox; a retry after a handover cut short appends each output once', async () => {
    let redisDown = true;
    const { store, service, appended } = setup({
      appendFails: () => redisDown,
      engine: (calls) => echoEngine(calls, () => [{ kind: 'event', event: { code: 'sendEvent', data: { code: 'cart', data: '{}' } } }]),
    });
    const c = store.conversation('web');
    store.addInput(c.id, { kind: 'message', text: 'a' });

    await expect(service.take({ botId: BOT, conversationId: c.id })).rejects.toThrow('Redis is down');
    expect(store.inputs[0].processed).toBe(true);
    expect(store.outboxItems.map((i) => i.kind)).toEqual(['reply', 'event']);
    expect(store.messages.map((m) => m.status)).toEqual(['queued']);
    expect(appended).toEqual([]);

    // Redis is back, but Postgres fails once the items are on the stream: they stay in the outbox.
    redisDown = false;
    const complete = store.runs.completeWebHandover;
    store.runs.completeWebHandover = async () => Promise.reject(new Error('Postgres went away'));
    await expect(service.take({ botId: BOT, conversationId: c.id })).rejects.toThrow('Postgres went away');
    expect(appended.map((a) => a.code)).toEqual(['conversation.message', 'cart']);
    expect(seqs(appended)).toEqual(['1']);
    expect(store.outboxItems).toHaveLength(2);

    store.runs.completeWebHandover = complete;
    await service.take({ botId: BOT, conversationId: c.id });
    expect(appended.map((a) => a.code)).toEqual(['conversation.message', 'cart']);
    expect(store.outboxItems).toEqual([]);
    expect(store.messages.map((m) => m.status)).toEqual(['sent']);
  });

  it('queues WhatsApp replies under their message ids one after another, each once the one before was sent; app events are dropped', async () => {
    const order: string[] = [];
    let store!: FakeStore;
    const s = setup({
      engine: (calls) =>
        echoEngine(calls, () => [
          { kind: 'event', event: { code: 'sendEvent', data: { code: 'cart', data: '{}' } } },
          { kind: 'reply', reply: { cards: [{ title: 'Card', buttons: [{ title: 'Go', payload: 'journey:go' }] }] } },
        ]),
      // The channel worker sends a queued reply a little later.
      onQueued: (id) => {
        order.push(`queued ${store.messages.find((m) => m.id === id)?.type}`);
        setTimeout(() => void store.conversationRepo.markSent(id, `wamid.${id}`), 30);
      },
    });
    store = s.store;
    const c = store.conversation('whatsapp');
    store.addInput(c.id, { kind: 'message', text: 'hi' });

    await s.service.take({ botId: BOT, conversationId: c.id });

    expect(order).toEqual(['queued text', 'queued carousel']);
    expect(s.jobs).toEqual(store.messages.map((m) => m.id));
    expect(s.appended).toEqual([]);
    expect(store.outboxItems).toEqual([]);
  });

  it('records a WhatsApp reply failed, not sent, once the user’s 24-hour window has closed', async () => {
    const { store, service, jobs } = setup();
    const c = store.conversation('whatsapp', { lastInboundAt: new Date(Date.now() - 25 * 3600 * 1000) });
    store.addInput(c.id, { kind: 'message', text: 'late' });

    await service.take({ botId: BOT, conversationId: c.id });

    expect(jobs).toEqual([]);
    expect(store.messages[0]).toMatchObject({ status: 'failed', lastErrorCode: 'window_closed' });
  });

  it('waits (ReplyOrderWaitError) rather than queue a WhatsApp reply while an earlier one is still unsent', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { store, service, jobs } = setup();
      const c = store.conversation('whatsapp');
      store.addMessage(c.id, 'text', { text: 'stuck in the channel worker' });
      store.addInput(c.id, { kind: 'message', text: 'next' });
      const taking = service.take({ botId: BOT, conversationId: c.id });
      const outcome = taking.catch((err: unknown) => err);
      await jest.advanceTimersByTimeAsync(25_000);
      expect(await outcome).toBeInstanceOf(ReplyOrderWaitError);
      expect(jobs).toEqual([]);
      expect(store.outboxItems).toHaveLength(1); // still to hand over, by the delayed retry
    } finally {
      jest.useRealTimers();
    }
  });

  it('two takes of one conversation at once: the second waits for the first, each input runs once and each reply goes once, in order', async () => {
    const { store, service, calls, appended } = setup();
    const c = store.conversation('web');
    for (const text of ['1', '2', '3', '4']) store.addInput(c.id, { kind: 'message', text });

    const [first, second] = await Promise.all([service.take({ botId: BOT, conversationId: c.id }), service.take({ botId: BOT, conversationId: c.id })]);

    expect(first.inputs + second.inputs).toBe(4);
    expect(calls).toHaveLength(4);
    expect(texts(appended)).toEqual(['echo 1 #1', 'echo 2 #2', 'echo 3 #3', 'echo 4 #4']);
    expect(seqs(appended)).toEqual(['1', '2', '3', '4']);
  });

  it('opens the bot’s secrets only when a node asks, once per turn', async () => {
    const reads: string[] = [];
    const engine = (calls: TurnRequest[]) =>
      ({
        run: async (req: TurnRequest) => {
          calls.push(req);
          reads.push(JSON.stringify(await req.ports.secrets()), JSON.stringify(await req.ports.secrets()));
          return { state: null, outputs: [], steps: [], logs: [] };
        },
      }) as unknown as TurnEngine;
    const { store, service } = setup({ engine });
    const c = store.conversation('web');
    store.addInput(c.id, { kind: 'message', text: 'a' });
    await service.take({ botId: BOT, conversationId: c.id });
    expect(reads).toEqual(['{"TOKEN":"t0ken"}', '{"TOKEN":"t0ken"}']);
  });

  it("tells a handoff node's conversation.handoff after the commit, on web and WhatsApp; a failure to tell keeps it in the outbox and the retry tells it under the same id", async () => {
    let failing = true;
    const handoffEngine = (calls: TurnRequest[]) => echoEngine(calls, (req) => (req.input.kind === 'message' && req.input.text === 'help' ? [{ kind: 'handoff', reason: 'asked for a person' }] : []));
    const { store, service, told, appended } = setup({ engine: handoffEngine, tellFails: () => failing });
    const web = store.conversation('web');
    store.addInput(web.id, { kind: 'message', text: 'help' });

    await expect(service.take({ botId: BOT, conversationId: web.id })).rejects.toThrow('Redis is down');
    expect(told).toEqual([]);
    expect(store.outboxItems.map((i) => i.kind)).toEqual(['reply', 'handoff']); // committed, not handed over
    const id = store.outboxItems[1]!.id;
    failing = false;
    await service.take({ botId: BOT, conversationId: web.id });
    expect(told).toEqual([{ conversationId: web.id, id, reason: 'asked for a person' }]);
    expect(texts(appended)).toEqual(['echo help #1']); // the reply reached the user once
    expect(store.outboxItems).toEqual([]);

    const wa = store.conversation('whatsapp');
    store.addInput(wa.id, { kind: 'message', text: 'help' });
    await service.take({ botId: BOT, conversationId: wa.id });
    expect(told.slice(1)).toEqual([{ conversationId: wa.id, id: expect.any(String), reason: 'asked for a person' }]);
    expect(store.outboxItems).toEqual([]);
  });

  it('stays silent while an agent has a conversation no journey ran in, until the handback ends the handoff', async () => {
    const { store, service, calls, appended } = setup();
    const c = store.conversation('web');
    store.bareHandoffs.add(c.id);
    store.addInput(c.id, { kind: 'message', text: 'agent, are you there?' });
    store.addInput(c.id, { kind: 'handback' });
    store.addInput(c.id, { kind: 'message', text: 'bot again' });

    await service.take({ botId: BOT, conversationId: c.id });

    expect(calls.map((r) => r.input)).toEqual([{ kind: 'message', text: 'bot again' }]);
    expect(texts(appended)).toEqual(['echo bot again #1']);
    expect(store.inputs.every((i) => i.processed)).toBe(true);
    expect(store.bareHandoffs.has(c.id)).toBe(false);
  });

  it("gives a web message that starts a journey after the last one ended the payload of the session's latest start", async () => {
    const { store, service, calls } = setup({
      // An engine whose journeys end at once: no state is kept between inputs.
      engine: (calls) => ({ run: async (req: TurnRequest): Promise<BotTurnResult> => (calls.push(req), { state: null, outputs: [], steps: [], logs: [] }) }) as unknown as TurnEngine,
    });
    const web = store.conversation('web');
    store.addInput(web.id, { kind: 'start', payload: '{"userName":"Ada"}' });
    store.addInput(web.id, { kind: 'message', text: 'again' });
    store.addInput(web.id, { kind: 'start', payload: '{"userName":"Bea"}' });
    store.addInput(web.id, { kind: 'message', text: 'and again' });
    await service.take({ botId: BOT, conversationId: web.id });
    // A running journey keeps its payload in its state, and WhatsApp has no session payload: neither asks.
    const running = store.conversation('web');
    store.states.set(running.id, { version: 1, journey: 'main', node: 'ask', status: 'waiting', variables: {}, retries: 0, payload: '{"userName":"Cy"}' });
    store.addInput(running.id, { kind: 'message', text: 'answer' });
    await service.take({ botId: BOT, conversationId: running.id });
    const wa = store.conversation('whatsapp');
    store.addInput(wa.id, { kind: 'message', text: 'hi' });
    await service.take({ botId: BOT, conversationId: wa.id });

    expect(calls.map((r) => [r.input.kind, r.sessionPayload])).toEqual([
      ['start', undefined],
      ['message', '{"userName":"Ada"}'],
      ['start', undefined],
      ['message', '{"userName":"Bea"}'],
      ['message', undefined],
      ['message', undefined],
    ]);
  });

  it('does nothing for an erased conversation', async () => {
    const { service } = setup();
    expect(await service.take({ botId: BOT, conversationId: randomUUID() })).toMatchObject({ found: false, inputs: 0 });
  });
});
