/** Messages between the page and what hosts it: a native web view (React Native) or the embed's iframe parent. */
export type HostCommand = 'closeBot' | 'reloadBot';

interface NativeBridge {
  postMessage(message: string): void;
}

/** Tells the host the page is ready, the user closed the chat (the native shell or the embed hides it), or a bot message arrived (the embed counts unread ones). */
export function notifyHost(type: 'close' | 'ready' | 'message'): void {
  const message = JSON.stringify({ source: 'bot-chat', type });
  const native = (window as unknown as { ReactNativeWebView?: NativeBridge }).ReactNativeWebView;
  if (native) native.postMessage(message);
  if (window.parent !== window) window.parent.postMessage(message, '*');
}

/**
 * Calls `handler` for closeBot / reloadBot sent by the host: an iframe parent's window.postMessage, or
 * react-native-webview's postMessage (dispatched on `window` on iOS, on `document` on Android; a
 * capturing listener on `window` hears both, once).
 */
export function onHostCommand(handler: (command: HostCommand) => void): void {
  window.addEventListener(
    'message',
    (e: Event) => {
      if (!(e instanceof MessageEvent)) return;
      let data: unknown = e.data;
      if (typeof data === 'string') {
        try {
          data = JSON.parse(data);
        } catch {
          return;
        }
      }
      const type = (data as { type?: unknown } | null)?.type;
      if (type === 'closeBot' || type === 'reloadBot') handler(type);
    },
    true,
  );
}
