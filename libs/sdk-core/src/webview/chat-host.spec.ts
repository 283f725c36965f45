import { EventDecodeError, SdkError, ValidationError } from '../errors';
import { ChatHost } from './chat-host';
import { parsePageMessage } from './chat-page-bridge';

const CONFIG = { botId: 'x1', ymAuthenticationToken: 'chat_tok', payload: { userName: 'Ada' } };
const OPTIONS = { cloudHost: 'cloud.example.com' };
const page = (message: object) => JSON.stringify({ source: 'bot-chat', ...message });
const botEvent = (id: string, code: string, data: object) => page({ type: 'event', id, event: { code: 'sendReactNativeEvent', data: { code, data: JSON.stringify(data) } } });

function linked(config = CONFIG, options: { cloudHost: string; apiBaseUrl?: string } = OPTIONS) {
  const host = new ChatHost<{ logout: { actionType: string } }>(config, options);
  const posted: string[] = [];
  const errors: SdkError[] = [];
  host.attach({ postMessage: (m) => posted.push(m) });
  host.onError((e) => errors.push(e));
  return { host, posted, errors };
}

describe('ChatHost: the host side of the chat page', () => {
  it('puts token and payload in the fragment of the url, on the API origin when apiBaseUrl is set', () => {
    expect(new ChatHost(CONFIG, OPTIONS).url).toBe('https://cloud.example.com/web/bot?botId=x1&version=2&enableSpeech=false#ymAuthenticationToken=chat_tok&payload=%7B%22userName%22%3A%22Ada%22%7D');
    expect(new ChatHost(CONFIG, { ...OPTIONS, apiBaseUrl: 'http://127.0.0.1:3000/' }).url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/web\/bot\?botId=x1&/);
    expect(() => new ChatHost({ ...CONFIG, botId: ' ' }, OPTIONS)).toThrow(ValidationError);
  });

  it('hands the bot events the page forwards to on() and onEventFromBot(), once per id, and reports bad ones', () => {
    const { host, errors } = linked();
    const seen: unknown[] = [];
    host.on('logout', (data, meta) => seen.push(['logout', data.actionType, meta.id, meta.platformCode]));
    host.onEventFromBot((event) => seen.push(['any', event.code]));
    expect(host.receive(botEvent('1-0', 'logout', { actionType: 'button' }))).toBe(true);
    expect(host.receive(botEvent('1-0', 'logout', { actionType: 'button' }))).toBe(true); // redelivered after a reload
    host.receive(botEvent('2-0', 'cart', { items: 2 }));
    expect(seen).toEqual([
      ['logout', 'button', '1-0', 'sendReactNativeEvent'],
      ['any', 'logout'],
      ['any', 'cart'],
    ]);
    host.receive(page({ type: 'event', id: '3-0', event: { code: 'sendReactNativeEvent', data: { code: 'x', data: '[1]' } } }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(EventDecodeError);
    expect((errors[0] as EventDecodeError).reason).toBe('dataNotObject');
  });

  it('tells onClose and onReady, and ignores what is not the page’s', () => {
    const { host } = linked();
    const calls: string[] = [];
    host.onClose(() => calls.push('close'));
    host.onReady(() => calls.push('ready'));
    expect(host.receive(page({ type: 'ready' }))).toBe(true);
    expect(host.receive({ source: 'bot-chat', type: 'close' })).toBe(true); // InAppBrowser hands an object
    expect(host.receive('{"type":"close"}')).toBe(false);
    expect(host.receive('not json')).toBe(false);
    expect(host.receive(page({ type: 'event' }))).toBe(false); // no id
    expect(host.receive(page({ type: 'typing' }))).toBe(false); // a newer page's message
    expect(calls).toEqual(['ready', 'close']);
  });

  it('counts bot messages as unread only while hidden, once each, and clears the count when shown', () => {
    const { host } = linked();
    const counts: number[] = [];
    host.onUnreadChange((n) => counts.push(n));
    host.receive(page({ type: 'message', id: 'm1', direction: 'outbound' }));
    expect(host.unreadCount).toBe(0);
    host.setVisible(false);
    host.receive(page({ type: 'message', id: 'm2', direction: 'outbound' }));
    host.receive(page({ type: 'message', id: 'm2', direction: 'outbound' }));
    host.receive(page({ type: 'message', id: 'm3', direction: 'inbound' })); // the user's own, from another tab
    host.receive(page({ type: 'message', id: 'm4', direction: 'outbound' }));
    expect(host.unreadCount).toBe(2);
    host.setVisible(true);
    expect(counts).toEqual([1, 2, 0]);
  });

  it('posts closeBot and reloadBot into the page, and reports a view that throws', () => {
    const { host, posted, errors } = linked();
    host.closeBot();
    host.reloadBot();
    expect(posted).toEqual(['{"type":"closeBot"}', '{"type":"reloadBot"}']);
    host.attach({
      postMessage: () => {
        throw new Error('web view gone');
      },
    });
    host.closeBot();
    expect(errors.map((e) => e.message)).toEqual(['A listener or the web view failed: Error: web view gone']);
    host.detach();
    host.closeBot();
    expect(errors).toHaveLength(1);
  });

  it('opens the bot a tapped notification names (botId, journeySlug), and leaves other notifications alone', () => {
    const { host, posted } = linked();
    const urls: string[] = [];
    host.onUrlChange((u) => urls.push(u));
    expect(host.openFromNotification({ title: 'hi' })).toBeNull();
    expect(host.openFromNotification(undefined)).toBeNull();
    const url = host.openFromNotification({ botId: 'x2', journeySlug: 'renewal' });
    expect(url).toBe(host.url);
    expect(urls).toEqual([url]);
    expect(decodeURIComponent(url!)).toContain('botId=x2&version=2');
    expect(decodeURIComponent(url!.split('#')[1])).toBe('ymAuthenticationToken=chat_tok&payload={"userName":"Ada","JourneySlug":"renewal"}');
    expect(host.config.botId).toBe('x2');
    // The page at the new address first resumes its stored session; the host has it start over (once), so the bot hears the journey.
    const readies: number[] = [];
    host.onReady(() => readies.push(1));
    host.receive(page({ type: 'ready' }));
    expect(posted).toEqual(['{"type":"reloadBot"}']);
    expect(readies).toEqual([]);
    host.receive(page({ type: 'ready' }));
    expect(readies).toEqual([1]);
    posted.length = 0;
    // The same notification again: the page is already there, so it starts over instead.
    host.openFromNotification({ botId: 'x2', journeySlug: 'renewal' });
    expect(urls).toHaveLength(1);
    expect(posted).toEqual(['{"type":"reloadBot"}']);
  });

  it('reloadBot with a new config changes the url', () => {
    const { host } = linked();
    const urls: string[] = [];
    host.onUrlChange((u) => urls.push(u));
    host.reloadBot({ ...CONFIG, payload: { userName: 'Grace' } });
    expect(urls).toHaveLength(1);
    expect(decodeURIComponent(urls[0])).toContain('"userName":"Grace"');
  });

  it('parsePageMessage reads every page message and nothing else', () => {
    expect(parsePageMessage(page({ type: 'message', id: 'm1', direction: 'outbound' }))).toEqual({ type: 'message', id: 'm1', direction: 'outbound' });
    expect(parsePageMessage({ source: 'other', type: 'close' })).toBeNull();
    expect(parsePageMessage(42)).toBeNull();
  });
});
