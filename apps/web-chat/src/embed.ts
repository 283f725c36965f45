/**
 * Floating chat widget for any site:
 * <script src="https://<platform>/web/bot/embed.js" data-bot-id="…" data-token="…" data-payload='{"userName":"Ada"}' async></script>
 * Opens the hosted chat page in an iframe from a round button (an SVG icon: no emoji font needed); the
 * page's close button hides it. The bot's messages that arrive while it is hidden are counted on the
 * button's badge until it is opened again. The site drives it through `window.BotChatWidget` (open,
 * close, events, unread count: docs/conversations.md), announced by a `botchat:load` event on window
 * since the script loads async.
 */
type WidgetEvent = 'open' | 'close' | 'ready' | 'message' | 'unread' | 'event';
(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script) return;
  const origin = new URL(script.src).origin;
  const d = script.dataset;
  const query = new URLSearchParams({
    botId: d.botId ?? '',
    version: d.version ?? '2',
    enableSpeech: d.enableSpeech === 'true' ? 'true' : 'false',
  });
  // Token and payload in the fragment, as the SDK puts them: never sent to the server, so no size limit of a request applies.
  const fragment = new URLSearchParams({ ymAuthenticationToken: d.token ?? '', payload: d.payload ?? '{}' });
  // Colours only: the value also goes into the launcher's inline style.
  const colour = (value?: string) => (value && /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(value) ? value : undefined);
  const barColor = colour(d.statusBarColor);
  const closeColor = colour(d.closeButtonColor);
  if (barColor) query.set('statusBarColor', barColor);
  if (closeColor) query.set('closeButtonColor', closeColor);
  const src = `${origin}/web/bot?${query}#${fragment}`;
  const color = barColor && barColor.length === 9 ? `#${barColor.slice(3)}${barColor.slice(1, 3)}` : (barColor ?? '#1f3a5f');

  const label = d.label ?? 'Open chat';
  /** White or near-black, whichever reads better on the launcher's colour (WCAG relative luminance). */
  function iconColor(hex: string): string {
    const channel = (i: number) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#111111' : '#ffffff';
  }
  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-label', label);
  button.setAttribute('aria-expanded', 'false');
  button.style.cssText = `position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;background:${color};color:${iconColor(color)};cursor:pointer;box-shadow:0 2px 10px rgba(0,0,0,.25);z-index:2147483646;display:flex;align-items:center;justify-content:center;padding:0`;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '28');
  svg.setAttribute('height', '28');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8.5L4 21.5V18a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 .01zm5 0a1.5 1.5 0 1 0 0 .01zm5 0a1.5 1.5 0 1 0 0 .01z');
  svg.append(path);
  const badge = document.createElement('span');
  badge.setAttribute('aria-hidden', 'true');
  badge.style.cssText =
    'position:absolute;top:-2px;right:-2px;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#b3261e;color:#fff;font:600 12px/22px system-ui,sans-serif;text-align:center;box-sizing:border-box;display:none';
  button.append(svg, badge);

  let frame: HTMLIFrameElement | undefined;
  let unread = 0;
  const listeners: Partial<Record<WidgetEvent, Set<(detail: unknown) => void>>> = {};
  const emit = (type: WidgetEvent, detail?: unknown) =>
    listeners[type]?.forEach((listener) => {
      try {
        listener(detail);
      } catch (err) {
        setTimeout(() => {
          throw err; // the site's listener failed: report it as uncaught, and call the others
        });
      }
    });
  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  const setUnread = (count: number) => {
    if (count === unread) return;
    unread = count;
    badge.textContent = count > 99 ? '99+' : String(count);
    badge.style.display = count > 0 ? 'block' : 'none';
    button.setAttribute('aria-label', count > 0 ? `${label}, ${count} unread ${count === 1 ? 'message' : 'messages'}` : label);
    button.dataset.unread = String(count);
    emit('unread', count);
  };
  const toggle = (open: boolean) => {
    const was = frame ? isOpen() : false;
    // data-preload="true": loaded hidden at once, so the bot's first messages count as unread.
    if ((open || d.preload === 'true') && !frame) {
      frame = document.createElement('iframe');
      frame.src = src;
      frame.title = d.title ?? 'Chat';
      frame.allow = 'microphone';
      frame.style.cssText =
        'position:fixed;right:20px;bottom:88px;width:min(380px,calc(100vw - 40px));height:min(600px,calc(100vh - 120px));border:0;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.3);z-index:2147483647;background:#fff';
      document.body.append(frame);
    }
    if (frame) frame.style.display = open ? 'block' : 'none';
    button.setAttribute('aria-expanded', String(open));
    if (open !== was) emit(open ? 'open' : 'close');
    if (open) {
      frame?.focus();
      setUnread(0);
    }
  };
  const post = (type: 'closeBot' | 'reloadBot') => frame?.contentWindow?.postMessage(JSON.stringify({ type }), origin);
  button.addEventListener('click', () => toggle(!isOpen()));
  window.addEventListener('message', (e) => {
    if (e.origin !== origin || typeof e.data !== 'string' || !frame || e.source !== frame.contentWindow) return;
    let m: { source?: string; type?: string; id?: string; direction?: string; event?: { code?: string; data?: { code?: string; data?: string } } };
    try {
      m = JSON.parse(e.data);
    } catch {
      return; // not ours
    }
    if (m.source !== 'bot-chat') return;
    if (m.type === 'close') toggle(false);
    else if (m.type === 'ready') emit('ready');
    else if (m.type === 'message' && m.direction === 'outbound') {
      emit('message', { id: m.id });
      if (!isOpen()) setUnread(unread + 1);
    } else if (m.type === 'event' && typeof m.event?.data?.code === 'string') {
      // The bot's app.sendEvent: its name and data (a JSON object), as the SDKs hand them to apps.
      let data: unknown;
      try {
        data = JSON.parse(m.event.data.data ?? '');
      } catch {
        return;
      }
      emit('event', { code: m.event.data.code, data, id: m.id });
    }
  });
  document.body.append(button);
  if (d.preload === 'true') toggle(false);

  const api = {
    /** Opens the chat (loading it the first time). */
    open: () => toggle(true),
    /** Hides the chat; it stays connected, and the bot's messages count as unread. */
    close: () => toggle(false),
    get isOpen() {
      return isOpen();
    },
    /** The bot's messages that arrived while the chat was closed. */
    get unreadCount() {
      return unread;
    },
    /** Closes the chat's stream (the page shows "Chat closed."), or starts it over on a new session. */
    closeBot: () => post('closeBot'),
    reloadBot: () => post('reloadBot'),
    /** Listens to open, close, ready, message ({ id }), unread (the count) or event ({ code, data, id }); returns what removes the listener. */
    on(type: WidgetEvent, listener: (detail: unknown) => void): () => void {
      (listeners[type] ??= new Set()).add(listener);
      return () => listeners[type]?.delete(listener);
    },
  };
  Object.assign(window, { BotChatWidget: api });
  window.dispatchEvent(new CustomEvent('botchat:load', { detail: api }));
})();
