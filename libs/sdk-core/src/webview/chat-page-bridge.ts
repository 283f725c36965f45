import { isRecord } from '../json/check-json';

/** What the chat page (`/web/bot`) posts to its host: `close` when the user closed it, `ready` once the conversation shows. */
export type ChatPageMessage = 'close' | 'ready';

/** What the host posts to the chat page: close its stream, or start a new session and show the transcript again. */
export type ChatPageCommand = 'closeBot' | 'reloadBot';

/** Marks the page's messages, so that a host's other web-view messages are not taken for them. */
export const CHAT_PAGE_SOURCE = 'bot-chat';

/** Everything the page posts to its host (docs/sdk-protocol.md, "Bridge"). */
export type PageMessage =
  | { type: 'close' }
  | { type: 'ready' }
  /** A bot message arrived on the live stream (not the transcript): hosts count unread ones. */
  | { type: 'message'; id: string; direction: string }
  /** A bot → app event, exactly as the stream carried it (`{ code: 'send<Platform>Event', data: { code, data } }`), with its stream id. */
  | { type: 'event'; id: string; event: unknown };

/**
 * The chat page's message in what a web view delivered: react-native-webview's `onMessage`
 * `nativeEvent.data` (a JSON string), InAppBrowser's `message` event `data` (an object) or a window
 * `message` event's `data`. Null for anything else, including messages of a type this SDK predates.
 */
export function parsePageMessage(data: unknown): PageMessage | null {
  let value: unknown = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!isRecord(value) || value.source !== CHAT_PAGE_SOURCE) return null;
  const { type, id } = value;
  if (type === 'close' || type === 'ready') return { type };
  if (typeof id !== 'string' || id === '') return null;
  if (type === 'message') return { type, id, direction: String(value.direction) };
  if (type === 'event') return { type, id, event: value.event };
  return null;
}

/** `close` / `ready` of the page's messages (see parsePageMessage for all of them). */
export function parseChatPageMessage(data: unknown): ChatPageMessage | null {
  const message = parsePageMessage(data);
  return message && (message.type === 'close' || message.type === 'ready') ? message.type : null;
}

/** The text to post into the page: `webViewRef.current.postMessage(text)`, or an iframe's `contentWindow.postMessage(text, origin)`. */
export function chatPageCommand(command: ChatPageCommand): string {
  return JSON.stringify({ type: command });
}

/** How the SDK reaches the page in the app's web view. */
export interface ChatPageView {
  postMessage(message: string): void;
}

export interface ChatPageHandlers {
  /** The user closed the chat on the page: hide the web view. The session is closed already. */
  onClose?(): void;
  /** The page shows the conversation. */
  onReady?(): void;
}

/** A web view linked to a session (`BotSession.connectWebView`). */
export interface ChatPageLink {
  /** Hand it every message of the web view; returns whether it was the chat page's. */
  receive(data: unknown): boolean;
  /** Stops posting closeBot / reloadBot to this view. */
  disconnect(): void;
}
