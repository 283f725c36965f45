// Hosted bots end to end: a definition published straight into its tables, users' messages recorded
// and handed to the runtime the way the gateway does (a bot_inputs row, then a bot-turn job keyed by
// its seq), the runtime as a built child process, and what reached the loopback Cloud API.
import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { BotDefinition, BotTurnJob } from '@platform/contracts';
import { ConversationRepository, PrismaService } from '@platform/database';
import type { RecordedRequest } from '@platform/sandbox';
import { testQueue } from '@platform/testing';
import { AppProcess, startAppProcess } from './app-process.js';

export const BOT_RUNTIME_MAIN = 'dist/apps/bot-runtime/src/main.js';

/** Publishes `definition` as the bot's version `version` (what `bot deploy` does through the API). */
export async function publish(app: INestApplicationContext, botId: string, definition: BotDefinition, version = 1): Promise<void> {
  const db = app.get(PrismaService, { strict: false });
  await db.botVersion.create({ data: { botId, version, definition: definition as object } });
  await db.botDefinitionDraft.upsert({ where: { botId }, create: { botId, publishedVersion: version }, update: { publishedVersion: version } });
}

/** The runtime as a child process on `env` (its /metrics answering), its health port a free one. */
export function startRuntime(env: Record<string, string>): Promise<AppProcess> {
  return startAppProcess(BOT_RUNTIME_MAIN, env, { portVar: 'BOT_RUNTIME_HEALTH_PORT' });
}

/** Hands users' messages to a hosted bot as the gateway does: the message recorded, an input row, a bot-turn job keyed by the input. */
export class BotInbox {
  private readonly queue: Queue<BotTurnJob>;

  constructor(
    private readonly app: INestApplicationContext,
    env: Record<string, string>,
  ) {
    this.queue = testQueue<BotTurnJob>('bot-turn', env);
  }

  /** A WhatsApp user's message (text, or a tapped button's title and payload) to `senderId`'s number; the conversation's id. */
  async whatsapp(botId: string, senderId: string, userId: string, text: string, payload?: string): Promise<string> {
    const repo = this.app.get(ConversationRepository, { strict: false });
    const { message } = await repo.recordInbound({
      botId,
      channel: 'whatsapp',
      userId,
      senderId,
      type: payload ? 'button' : 'text',
      content: { text, ...(payload ? { payload } : {}) },
      providerMessageId: `wamid.in-${Math.random().toString(36).slice(2)}`,
      at: new Date(),
    });
    await this.input(botId, message.conversationId, 'message', message.id);
    return message.conversationId;
  }

  /** A web chat user's message; the conversation's id. */
  async web(botId: string, userId: string, text: string): Promise<string> {
    const repo = this.app.get(ConversationRepository, { strict: false });
    const { message } = await repo.recordInbound({ botId, channel: 'web', userId, type: 'text', content: { text }, at: new Date() });
    await this.input(botId, message.conversationId, 'message', message.id);
    return message.conversationId;
  }

  private async input(botId: string, conversationId: string, kind: 'message', messageId: string): Promise<void> {
    const db = this.app.get(PrismaService, { strict: false });
    const row = await db.botInput.create({ data: { botId, conversationId, kind, messageId }, select: { seq: true } });
    // The queue's declared options (queue-declarations.ts), shortened: a test waits for retries.
    await this.queue.add('turn', { botId, conversationId }, { jobId: `input-${row.seq}`, attempts: 25, backoff: { type: 'exponential', delay: 200 }, removeOnComplete: true });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** One Cloud API message in a word: `text:<body>`, `buttons:<body>[<titles>]`, `image:<link>`, `carousel:<titles>`. */
export function describeSend(request: RecordedRequest): string {
  const body = request.body as {
    type: string;
    text?: { body: string };
    image?: { link: string };
    interactive?: { type: string; body?: { text: string }; action: { buttons?: Array<{ reply: { title: string } }>; cards?: Array<{ body: { text: string } }> } };
  };
  if (body.type === 'text') return `text:${body.text!.body}`;
  if (body.type === 'image') return `image:${body.image!.link}`;
  const interactive = body.interactive!;
  if (interactive.type === 'carousel') return `carousel:${interactive.action.cards!.map((c) => c.body.text).join('|')}`;
  return `buttons:${interactive.body?.text}[${(interactive.action.buttons ?? []).map((b) => b.reply.title).join('|')}]`;
}

/** What reached the Cloud API for `recipient`, in arrival order. */
export function sentTo(requests: RecordedRequest[], recipient: string): string[] {
  return requests.filter((r) => (r.body as { to?: string })?.to === recipient).map(describeSend);
}
