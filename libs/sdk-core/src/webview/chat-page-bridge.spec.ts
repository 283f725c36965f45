import { SessionError, type SdkError } from '../errors';
import { recordingFetch } from '../testing/recording-fetch.spec-helper';
import type { WebSocketLike } from '../transport/websocket-like';
import { BotSession } from '../session/bot-session';
import { chatPageCommand, parseChatPageMessage } from './chat-page-bridge';

class QuietSocket implements WebSocketLike {
  readyState = 0;
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  send(): void {}
  close(): void {}
}

const started = (n: number) => ({ status: 201, body: { sessionId: `s${n}`, streamUrl: `wss://cloud.example.com/v1/stream/s${n}` } });

function session() {
  const recorder = recordingFetch([started(1), started(2), started(3)]);
  const bot = new BotSession({ botId: 'x1', ymAuthenticationToken: 'chat_tok' }, { cloudHost: 'cloud.example.com', fetch: recorder.fetch, WebSocket: QuietSocket });
  const posted: string[] = [];
  return { bot, posted, view: { postMessage: (m: string) => posted.push(m) } };
}

describe('chat page messages', () => {
  it.each([
    ['{"source":"bot-chat","type":"close"}', 'close'],
    ['{"source":"bot-chat","type":"ready"}', 'ready'],
    [{ source: 'bot-chat', type: 'close' }, 'close'],
  ])('reads %j as %s', (data, expected) => {
    expect(parseChatPageMessage(data)).toBe(expected);
  });

  it.each([['not json'], ['{"type":"close"}'], ['{"source":"other","type":"close"}'], ['{"source":"bot-chat","type":"explode"}'], [null], [42], ['null']])(
    'ignores %j (not the chat page speaking)',
    (data) => {
      expect(parseChatPageMessage(data)).toBeNull();
    },
  );

  it('writes the commands the page understands', () => {
    expect(JSON.parse(chatPageCommand('closeBot'))).toEqual({ type: 'closeBot' });
    expect(JSON.parse(chatPageCommand('reloadBot'))).toEqual({ type: 'reloadBot' });
  });
});

describe('BotSession.connectWebView', () => {
  it('posts closeBot and reloadBot to the linked page', async () => {
    const { bot, posted, view } = session();
    bot.connectWebView(view);
    await bot.start();
    await bot.reloadBot();
    bot.closeBot();
    expect(posted.map((m) => JSON.parse(m).type)).toEqual(['reloadBot', 'closeBot']);
    expect(bot.state).toBe('closed');
  });

  it("closes the session and calls onClose when the page's close button is used, without echoing closeBot to it", async () => {
    const { bot, posted, view } = session();
    const closed: string[] = [];
    const link = bot.connectWebView(view, { onClose: () => closed.push('closed'), onReady: () => closed.push('ready') });
    await bot.start();
    expect(link.receive('{"source":"bot-chat","type":"ready"}')).toBe(true);
    expect(link.receive('{"source":"bot-chat","type":"close"}')).toBe(true);
    expect(closed).toEqual(['ready', 'closed']);
    expect(bot.state).toBe('closed');
    expect(bot.sessionId).toBeNull();
    expect(posted).toEqual([]);
    expect(link.receive('{"kind":"app-analytics"}')).toBe(false);
  });

  it('stops posting to a disconnected view, and reports a view that throws', async () => {
    const { bot, posted, view } = session();
    const errors: SdkError[] = [];
    bot.onError((e) => errors.push(e));
    bot.connectWebView(view).disconnect();
    bot.connectWebView({
      postMessage: () => {
        throw new Error('web view unmounted');
      },
    });
    bot.closeBot();
    expect(posted).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(SessionError);
  });
});
