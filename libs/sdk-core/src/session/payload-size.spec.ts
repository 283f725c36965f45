import { PAYLOAD_MAX_BYTES } from '../config/rules';
import { ValidationError } from '../errors';
import { utf8Length } from '../json/utf8-length';
import { FakeWebSocket } from '../testing/fake-websocket.spec-helper';
import { recordingFetch } from '../testing/recording-fetch.spec-helper';
import { BotSession } from './bot-session';

// {"k":"…"} is 8 bytes of JSON around the string; "é" is 2 bytes in UTF-8 but 1 UTF-16 unit.
const sized = (bytes: number) => ({ k: 'é'.repeat((bytes - 8) / 2) });
const options = (fetch: ReturnType<typeof recordingFetch>['fetch']) => ({ cloudHost: 'cloud.example.com', fetch, WebSocket: FakeWebSocket });
const started = { status: 201, body: { sessionId: 's1', streamUrl: 'wss://cloud.example.com/v1/stream/s1' } };

describe('payload size limit (UTF-8 bytes of the JSON)', () => {
  it('counts UTF-8 bytes like Node does', () => {
    for (const text of ['', 'ascii', 'é', '€', '😀', 'a😀b€é', '\u{10FFFF}', JSON.stringify({ k: '\ud800' })]) {
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
    expect(utf8Length(JSON.stringify(sized(PAYLOAD_MAX_BYTES)))).toBe(PAYLOAD_MAX_BYTES);
    expect(JSON.stringify(sized(PAYLOAD_MAX_BYTES)).length).toBeLessThan(PAYLOAD_MAX_BYTES); // characters would undercount
  });

  it('refuses a session payload over the limit when the session is created, before any request', () => {
    const { fetch, calls } = recordingFetch([started]);
    let thrown: unknown;
    try {
      new BotSession({ botId: 'x1', ymAuthenticationToken: 'tok', payload: sized(PAYLOAD_MAX_BYTES + 2) }, options(fetch));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({ field: 'payload', rule: 'maxBytes' });
    expect((thrown as Error).message).toBe(`payload must be at most ${PAYLOAD_MAX_BYTES} bytes as JSON (UTF-8); it is ${PAYLOAD_MAX_BYTES + 2}`);
    expect(calls).toEqual([]);
  });

  it('sends a payload of exactly the limit', async () => {
    const { fetch, calls } = recordingFetch([started]);
    const bot = new BotSession({ botId: 'x1', ymAuthenticationToken: 'tok', payload: sized(PAYLOAD_MAX_BYTES) }, options(fetch));
    await bot.start();
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toMatchObject({ payload: sized(PAYLOAD_MAX_BYTES) });
    bot.closeBot();
  });

  it('refuses event data over the limit without a request, and sends data of exactly the limit', async () => {
    const { fetch, calls } = recordingFetch([started, { status: 202, body: { message: 'ok', status: 'success', eventId: 'e1' } }]);
    const bot = new BotSession({ botId: 'x1', ymAuthenticationToken: 'tok' }, options(fetch));
    await bot.start();
    const refused = bot.sendEventToBot('big', sized(PAYLOAD_MAX_BYTES + 2));
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({ field: 'data', rule: 'maxBytes' });
    expect(calls).toHaveLength(1); // the session start only

    await bot.sendEventToBot('fits', sized(PAYLOAD_MAX_BYTES));
    expect(calls).toHaveLength(2);
    expect(calls[1].body).toEqual({ code: 'fits', data: sized(PAYLOAD_MAX_BYTES) });
    bot.closeBot();
  });
});
