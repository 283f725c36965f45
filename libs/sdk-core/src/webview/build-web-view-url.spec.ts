import { ValidationError } from '../errors';
import { buildWebViewUrl } from './build-web-view-url';

const cloudHost = 'cloud.example.com';

function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

function fragment(url: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(new URL(url).hash.slice(1)));
}

describe('buildWebViewUrl', () => {
  it('opens the bot on the cloud host with version and speech flag, and the payload as JSON in the fragment', () => {
    const url = buildWebViewUrl({ botId: 'x1 2&3', payload: { name: 'Zoë & co', list: [1] } }, { cloudHost });
    expect(url.startsWith('https://cloud.example.com/web/bot?')).toBe(true);
    expect(query(url)).toEqual({ botId: 'x1 2&3', version: '2', enableSpeech: 'false' });
    expect(fragment(url)).toEqual({ payload: '{"name":"Zoë & co","list":[1]}' });
    expect(fragment(buildWebViewUrl({ botId: 'b' }, { cloudHost }))).toEqual({ payload: '{}' });
  });

  it('keeps a payload near the 64 KB limit out of the request: the query stays short', () => {
    const payload = { notes: 'x'.repeat(60 * 1024) };
    const url = new URL(buildWebViewUrl({ botId: 'b', ymAuthenticationToken: 'tok', payload }, { cloudHost }));
    expect(url.search.length).toBeLessThan(100);
    expect(JSON.parse(fragment(url.href).payload)).toEqual(payload);
  });

  it('uses the region host of customBaseUrl', () => {
    const url = buildWebViewUrl({ botId: 'b', customBaseUrl: 'https://r4.cloud.example.com/' }, { cloudHost });
    expect(url.startsWith('https://r4.cloud.example.com/web/bot?botId=b&')).toBe(true);
  });

  it('switches speech-to-text off unless enableSpeech is true', () => {
    expect(query(buildWebViewUrl({ botId: 'b', enableSpeech: false }, { cloudHost })).enableSpeech).toBe('false');
    expect(query(buildWebViewUrl({ botId: 'b', enableSpeech: true }, { cloudHost })).enableSpeech).toBe('true');
  });

  it('passes the status-bar and close-button colours to the page, and leaves them out when unset', () => {
    const url = buildWebViewUrl({ botId: 'b', statusBarColor: '#FF1A73E8', closeButtonColor: '#ffffff' }, { cloudHost });
    expect(query(url)).toMatchObject({ statusBarColor: '#FF1A73E8', closeButtonColor: '#ffffff' });
    expect(url).toContain('statusBarColor=%23FF1A73E8&closeButtonColor=%23ffffff');
    expect(Object.keys(query(buildWebViewUrl({ botId: 'b' }, { cloudHost })))).toEqual(['botId', 'version', 'enableSpeech']);
  });

  it.each(['red', '#fff', '#12345g', '#123456;background:url(x)', '#123456&enableSpeech=true', 'rgb(0,0,0)'])('refuses the colour %j (only #RRGGBB or #AARRGGBB reach the page)', (color) => {
    for (const field of ['statusBarColor', 'closeButtonColor'] as const) {
      let thrown: unknown;
      try {
        buildWebViewUrl({ botId: 'b', [field]: color }, { cloudHost });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect(thrown).toMatchObject({ field, rule: 'color' });
    }
  });

  it('passes the chat auth token in the fragment, not the query', () => {
    const url = new URL(buildWebViewUrl({ botId: 'b', ymAuthenticationToken: 'tok_1-A' }, { cloudHost }));
    expect(url.searchParams.has('ymAuthenticationToken')).toBe(false);
    expect(url.hash).toBe('#ymAuthenticationToken=tok_1-A&payload=%7B%7D');
  });

  it('refuses an invalid config', () => {
    expect(() => buildWebViewUrl({ botId: 'b', customBaseUrl: 'https://r9.cloud.example.com' }, { cloudHost })).toThrow(ValidationError);
  });
});
