import { ChatApiError } from './chat-api.error.js';

export type OutgoingState = 'pending' | 'sending' | 'failed';

/** A message the user typed that the server has not confirmed yet. */
export interface Outgoing {
  /** Sent with every attempt: the server records one message per id, so a retry after a lost answer is not a second message. */
  clientId: string;
  text: string;
  payload?: string;
  createdAt: string;
  state: OutgoingState;
  /** Why it failed, for the person (failed only). */
  error?: string;
}

export interface OutboxDeps {
  /** Answers the server's id of the message and, when it says, its place in the conversation. */
  send(item: Outgoing): Promise<{ messageId: string; seq?: string }>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  storageKey: string;
  isOnline(): boolean;
  /** Called on every state change, and with the server's id (and place) once it is recorded (the item then leaves the outbox). */
  changed(item: Outgoing, messageId?: string, seq?: string): void;
  wait?(ms: number): Promise<void>;
  newId?(): string;
}

/** Attempts of one message while the browser says it is online, before it is shown as failed. */
export const MAX_ATTEMPTS = 4;
const BACKOFF_MS = [1000, 2000, 4000];

/**
 * The user's unsent messages, kept per tab (sessionStorage) so that a reload or a lost connection loses
 * none. Sends one at a time, oldest first, so the bot receives them in the order they were typed; while
 * the browser is offline nothing is tried, and `resume` (on the `online` event) sends what waited.
 * A refusal by the server (4xx) or repeated failures while online mark the message failed; `retry`
 * queues it again.
 */
export class Outbox {
  private items: Outgoing[];
  private running = false;
  private readonly wait: (ms: number) => Promise<void>;
  private readonly newId: () => string;

  constructor(private readonly deps: OutboxDeps) {
    this.wait = deps.wait ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.newId = deps.newId ?? randomId;
    // A message that was being sent when the page went away may or may not have arrived: sent again with its id.
    this.items = this.load().map((item) => (item.state === 'sending' ? { ...item, state: 'pending' } : item));
  }

  /** What is waiting, oldest first (shown after the transcript on load). */
  list(): readonly Outgoing[] {
    return this.items;
  }

  add(text: string, payload?: string): Outgoing {
    const item: Outgoing = { clientId: this.newId(), text, ...(payload === undefined ? {} : { payload }), createdAt: new Date().toISOString(), state: 'pending' };
    this.items.push(item);
    this.save();
    this.deps.changed(item);
    void this.pump();
    return item;
  }

  /** Queues a failed message again, after those already waiting. */
  retry(clientId: string): void {
    const index = this.items.findIndex((i) => i.clientId === clientId && i.state === 'failed');
    if (index < 0) return;
    const [item] = this.items.splice(index, 1);
    item.state = 'pending';
    delete item.error;
    this.items.push(item);
    this.save();
    this.deps.changed(item);
    void this.pump();
  }

  /** Sends what waited (the connection is back, or the page has loaded). */
  resume(): Promise<void> {
    return this.pump();
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const item = this.items.find((i) => i.state === 'pending');
        if (!item || !this.deps.isOnline()) return;
        await this.deliver(item);
      }
    } finally {
      this.running = false;
    }
  }

  private async deliver(item: Outgoing): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.set(item, 'sending');
      try {
        const { messageId, seq } = await this.deps.send(item);
        this.items = this.items.filter((i) => i !== item);
        this.save();
        this.deps.changed(item, messageId, seq);
        return;
      } catch (err) {
        if (err instanceof ChatApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429) {
          return this.set(item, 'failed', err.message);
        }
        // Offline: it waits, in its place, for the connection (resume).
        if (!this.deps.isOnline()) return this.set(item, 'pending');
        if (attempt >= MAX_ATTEMPTS) return this.set(item, 'failed', err instanceof ChatApiError ? err.message : 'The message could not be sent.');
        this.set(item, 'pending');
        await this.wait(BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length - 1)]);
        if (!this.deps.isOnline()) return;
      }
    }
  }

  private set(item: Outgoing, state: OutgoingState, error?: string): void {
    item.state = state;
    if (error) item.error = error;
    else delete item.error;
    this.save();
    this.deps.changed(item);
  }

  private load(): Outgoing[] {
    try {
      const value = JSON.parse(this.deps.storage.getItem(this.deps.storageKey) ?? '[]');
      return Array.isArray(value) ? value.filter((i) => i && typeof i.clientId === 'string' && typeof i.text === 'string') : [];
    } catch {
      return [];
    }
  }

  private save(): void {
    try {
      this.deps.storage.setItem(this.deps.storageKey, JSON.stringify(this.items));
    } catch {
      // storage full or denied: the queue still works for this page's life
    }
  }
}

/** 128 random bits as hex (crypto.randomUUID needs a secure context; a page on plain http has none). */
function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
