import { ValidationError } from '../errors';
import { buildWebViewUrl } from './build-web-view-url';

const cloudHost = 'cloud.example.com';

function query(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams);
}

describe('buildWebViewUrl', () => {
  it('opens the bot on the cloud host with version, speech flag and the payload as JSON', () => {
    const url = buildWebViewUrl({ botId: 'x1 2&3', payload: { name: 'Zoë & co', list: [1] } }, { cloudHost });
    expect(url.startsWith('https://cloud.example.com/web/bot?')).toBe(true);
    expect(query(url)).toEqual({ botId: 'x1 2&3', version: '2', enableSpeech: 'false', payload: '{"name":"Zoë & co","list":[1]}' });
    expect(new URL(url).hash).toBe('');
  });

  it('uses the region host of customBaseUrl', () => {
    const url = buildWebViewUrl({ botId: 'b', customBaseUrl: 'https://r4.cloud.example.com/' }, { cloudHost });
    expect(url.startsWith('https://r4.cloud.example.com/web/bot?botId=b&')).toBe(true);
  });

  it('switches speech-to-text off unless enableSpeech is true', () => {
    expect(query(buildWebViewUrl({ botId: 'b', enableSpeech: false }, { cloudHost })).enableSpeech).toBe('false');
    expect(query(buildWebViewUrl({ botId: 'b', enableSpeech: true }, { cloudHost })).enableSpeech).toBe('true');
  });

  it('passes the chat auth token in the fragment, not the query', () => {
    const url = new URL(buildWebViewUrl({ botId: 'b', ymAuthenticationToken: 'tok_1-A' }, { cloudHost }));
    expect(url.searchParams.has('ymAuthenticationToken')).toBe(false);
    expect(url.hash).toBe('#ymAuthenticationToken=tok_1-A');
  });

  it('refuses an invalid config', () => {
    expect(() => buildWebViewUrl({ botId: 'b', customBaseUrl: 'https://r9.cloud.example.com' }, { cloudHost })).toThrow(ValidationError);
  });
});
