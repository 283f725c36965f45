import type { PageMessageView } from './order.js';

/** A short, stable name for the user (FNV-1a of the token): the channel name never carries the token itself. */
function userKey(token: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

/**
 * The user's own messages across their tabs of the same chat (same origin, bot and token): a tab that
 * has its message confirmed by the server tells the others, which show it in place (the event stream
 * carries only the bot's messages). Browsers without BroadcastChannel see them after a reload.
 */
export class TabSync {
  private readonly channel?: BroadcastChannel;

  constructor(botId: string, token: string, received: (view: PageMessageView) => void) {
    if (typeof BroadcastChannel !== 'function') return;
    this.channel = new BroadcastChannel(`botchat:${botId}:${userKey(token)}`);
    this.channel.onmessage = (e: MessageEvent) => {
      const view = e.data as PageMessageView | null;
      if (view && typeof view.id === 'string' && view.direction === 'inbound' && typeof view.content === 'object') received(view);
    };
  }

  post(view: PageMessageView): void {
    this.channel?.postMessage(view);
  }
}
