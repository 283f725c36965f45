import { EventDecodeError, type SdkError } from '@bot-platform/sdk-core';
import { commandScript } from './cordova-bot-chat';
import { create } from './index';
import { RecordingBrowser } from './testing/recording-browser.spec-helper';

const CONFIG = { botId: 'x1', ymAuthenticationToken: 'chat_tok', payload: { userName: 'Ada' } };
// InAppBrowser parses what the page posted: its message event's data is an object.
const page = (message: object) => ({ source: 'bot-chat', ...message });

function chat() {
  const browsers: RecordingBrowser[] = [];
  const opened: string[] = [];
  const bot = create<{ logout: { actionType: string } }>(CONFIG, {
    cloudHost: 'cloud.example.com',
    open: (url, target, features) => {
      opened.push(`${target} ${features}`);
      const browser = new RecordingBrowser(url);
      browsers.push(browser);
      return browser;
    },
  });
  return { bot, browsers, opened };
}

describe('the Cordova plugin (InAppBrowser)', () => {
  it('opens the chat page in an InAppBrowser window, once', () => {
    const { bot, browsers, opened } = chat();
    expect(bot.isOpen).toBe(false);
    bot.open();
    bot.open();
    expect(browsers).toHaveLength(1);
    expect(browsers[0].url).toBe('https://cloud.example.com/web/bot?botId=x1&version=2&enableSpeech=false#ymAuthenticationToken=chat_tok&payload=%7B%22userName%22%3A%22Ada%22%7D');
    expect(opened).toEqual(['_blank location=no,hidenavigationbuttons=yes,toolbar=no']);
    expect(browsers[0].calls).toEqual(['show']); // the second open() shows the window it has
  });

  it("delivers the bot's events from the window's message event, once each, and reports bad ones", () => {
    const { bot, browsers } = chat();
    const got: string[] = [];
    const errors: SdkError[] = [];
    bot.on('logout', (data, meta) => got.push(`${data.actionType} ${meta.id}`));
    bot.onError((e) => errors.push(e));
    bot.open();
    const event = page({ type: 'event', id: '5-0', event: { code: 'sendCordovaEvent', data: { code: 'logout', data: '{"actionType":"button"}' } } });
    browsers[0].fire('message', event);
    browsers[0].fire('message', event);
    browsers[0].fire('message', page({ type: 'event', id: '6-0', event: { code: 'nope', data: {} } }));
    expect(got).toEqual(['button 5-0']);
    expect(errors.map((e) => e instanceof EventDecodeError && e.reason)).toEqual(['badPlatformCode']);
  });

  it('posts closeBot / reloadBot with executeScript, as a message event the page hears', () => {
    const { bot, browsers } = chat();
    bot.reloadBot(); // not open: nothing to post to
    bot.open();
    bot.reloadBot();
    bot.closeBot();
    expect(browsers[0].scripts).toEqual([commandScript('{"type":"reloadBot"}'), commandScript('{"type":"closeBot"}')]);
    expect(commandScript('{"type":"closeBot"}')).toBe(`window.dispatchEvent(new MessageEvent('message',{data:"{\\"type\\":\\"closeBot\\"}"}));`);
  });

  it("closes the window on the page's close button and on close(); the system back button forgets it", () => {
    const { bot, browsers } = chat();
    const closes: number[] = [];
    bot.onClose(() => closes.push(1));
    bot.open();
    browsers[0].fire('message', page({ type: 'close' }));
    expect(browsers[0].calls).toEqual(['close']);
    expect(closes).toEqual([1]);
    expect(bot.isOpen).toBe(false);
    bot.open();
    bot.close();
    expect(browsers[1].scripts).toEqual([commandScript('{"type":"closeBot"}')]);
    expect(browsers[1].calls).toEqual(['close']);
    bot.open();
    browsers[2].fire('exit');
    expect(bot.isOpen).toBe(false);
    browsers[2].fire('message', page({ type: 'close' })); // a late message of a window that is gone
    expect(closes).toEqual([1]);
  });

  it('counts unread bot messages while hidden, and clears them when shown', () => {
    const { bot, browsers } = chat();
    bot.open();
    bot.hide();
    browsers[0].fire('message', page({ type: 'message', id: 'm1', direction: 'outbound' }));
    browsers[0].fire('message', page({ type: 'message', id: 'm2', direction: 'outbound' }));
    expect(bot.unreadCount).toBe(2);
    bot.show();
    expect(bot.unreadCount).toBe(0);
    expect(browsers[0].calls).toEqual(['hide', 'show']);
  });

  it("opens the bot of a tapped notification (FCM data or a plugin's flat message), reopening an open window at its address", () => {
    const { bot, browsers } = chat();
    expect(bot.handleNotificationTap({ title: 'Sale' })).toBe(false);
    expect(bot.handleNotificationTap({ data: { botId: 'x7', journeySlug: 'renewal' } })).toBe(true);
    expect(browsers).toHaveLength(1);
    expect(browsers[0].url).toContain('botId=x7');
    expect(decodeURIComponent(browsers[0].url)).toContain('"JourneySlug":"renewal"');
    expect(bot.handleNotificationTap({ botId: 'x8', tap: 'background' })).toBe(true); // cordova-plugin-firebasex's shape
    expect(browsers).toHaveLength(2);
    expect(browsers[0].calls).toContain('close');
    expect(browsers[1].url).toContain('botId=x8');
  });

  it('names the missing InAppBrowser plugin', () => {
    expect(() => create(CONFIG, { cloudHost: 'cloud.example.com' }).open()).toThrow('cordova-plugin-inappbrowser is not installed');
  });
});
