import { BotWebhookServer, WebhookCall } from './bot-webhook-server.js';

export interface EchoBotOptions {
  /** The platform's API base, e.g. http://127.0.0.1:3000. */
  apiBaseUrl: string;
  botId: string;
  /** An API key of the bot (bpk_…). */
  apiKey: string;
  /** Address of the n-th picture (default: picsum.photos). */
  pictureUrl?: (n: number) => string;
  log?: (line: string) => void;
  /** Waits this long before answering a user's message (a bot that takes its time: the chat page shows it typing). */
  replyDelayMs?: number;
}

const QUICK_REPLIES = [
  { title: 'Show a carousel', payload: 'carousel' },
  { title: 'Send an image', payload: 'image' },
];

const picture = (seed: number) => `https://picsum.photos/seed/bot${seed}/480/270`;

/**
 * A minimal bot on its webhook (signature checked by BotWebhookServer): greets each new web-chat user,
 * echoes what they write (and names the files they send), and answers the quick replies `carousel` and `image` with a carousel of three
 * cards and an image, all through the reply API. The demo bot of `npm run up` and the chat tests.
 */
/** How many call ids the echo bot remembers to drop repeats. */
const SEEN_MAX = 10_000;

export class EchoBot {
  readonly server: BotWebhookServer;
  /** Replies the API refused (status and body), for tests to look at. */
  readonly refused: Array<{ status: number; body: string }> = [];
  /** Ids of the calls answered lately: calls come at least once, and a repeat is dropped. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly options: EchoBotOptions,
    secret = '',
  ) {
    this.server = new BotWebhookServer(secret);
    this.server.onDelivered = (call) => void this.handle(call).catch((err: Error) => this.options.log?.(`echo bot: ${err.message}`));
  }

  listen(): Promise<string> {
    return this.server.listen();
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private async handle(call: WebhookCall): Promise<void> {
    const body = call.body as { id?: string; type?: string; conversationId?: string; message?: { content?: { text?: string; payload?: string } } };
    if (!body.conversationId) return;
    // A call retried after a slow answer comes again with the same id (the webhook-id): answer it once,
    // as docs/conversations.md tells bots to.
    if (typeof body.id === 'string') {
      if (this.seen.has(body.id)) return;
      this.seen.add(body.id);
      if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value!);
    }
    if (body.type === 'session.started') {
      await this.reply(body.conversationId, { text: 'Hello! I am the echo bot. Write anything and I will say it back.', quickReplies: QUICK_REPLIES });
      return;
    }
    if (body.type !== 'message.received') return;
    if (this.options.replyDelayMs) await new Promise((r) => setTimeout(r, this.options.replyDelayMs));
    const { text = '', payload, attachment } = (body.message?.content ?? {}) as { text?: string; payload?: string; attachment?: { filename?: string; mimeType?: string; size?: number } };
    if (attachment) {
      await this.reply(body.conversationId, { text: `Got your file ${attachment.filename} (${attachment.mimeType}, ${attachment.size} bytes)` });
      return;
    }
    const ask = (payload ?? text).trim().toLowerCase();
    if (ask === 'carousel') {
      await this.reply(body.conversationId, {
        cards: [1, 2, 3].map((n) => ({
          title: `Card ${n}`,
          subtitle: `The ${['first', 'second', 'third'][n - 1]} of three`,
          imageUrl: this.picture(n),
          buttons: [{ title: `Pick ${n}`, payload: `pick-${n}` }],
        })),
      });
    } else if (ask === 'image') {
      await this.reply(body.conversationId, { image: { url: this.picture(7), caption: 'A picture from the echo bot' } });
    } else {
      await this.reply(body.conversationId, { text: `You said: ${text}`, quickReplies: QUICK_REPLIES });
    }
  }

  private picture(n: number): string {
    return this.options.pictureUrl?.(n) ?? picture(n);
  }

  private async reply(conversationId: string, message: object): Promise<void> {
    const { apiBaseUrl, botId, apiKey } = this.options;
    const res = await fetch(`${apiBaseUrl}/v1/bots/${botId}/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(message),
    });
    const text = await res.text();
    if (res.status !== 202) {
      this.refused.push({ status: res.status, body: text });
      this.options.log?.(`echo bot: the reply API answered ${res.status}: ${text}`);
    }
  }
}
