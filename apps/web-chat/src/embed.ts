/**
 * Floating chat widget for any site:
 * <script src="https://<platform>/web/bot/embed.js" data-bot-id="…" data-token="…" data-payload='{"userName":"Ada"}' async></script>
 * Opens the hosted chat page in an iframe from a round button; the page's close button hides it.
 */
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

  const button = document.createElement('button');
  button.type = 'button';
  button.setAttribute('aria-label', d.label ?? 'Open chat');
  button.setAttribute('aria-expanded', 'false');
  button.textContent = '💬';
  button.style.cssText = `position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;background:${color};color:#fff;font-size:24px;cursor:pointer;box-shadow:0 2px 10px rgba(0,0,0,.25);z-index:2147483646`;

  let frame: HTMLIFrameElement | undefined;
  const toggle = (open: boolean) => {
    if (open && !frame) {
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
    if (open) frame?.focus();
  };
  button.addEventListener('click', () => toggle(button.getAttribute('aria-expanded') !== 'true'));
  window.addEventListener('message', (e) => {
    if (e.origin !== origin || typeof e.data !== 'string') return;
    try {
      if (JSON.parse(e.data).type === 'close') toggle(false);
    } catch {
      // not ours
    }
  });
  document.body.append(button);
})();
