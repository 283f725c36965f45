import { buildStreamUrl } from './stream-url.js';

describe('buildStreamUrl', () => {
  const bot = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';
  const session = '6c1d2a4e-8f7b-4e57-a0a4-2a2f7a9d4c3e';

  it('is wss:// under an https BASE_URL and keeps its path prefix', () => {
    expect(buildStreamUrl('https://cloud.example.com/api/', bot, session)).toBe(`wss://cloud.example.com/api/v1/bots/${bot}/sessions/${session}/stream`);
  });

  it('is ws:// under http and uses the bound port when PORT was 0', () => {
    expect(buildStreamUrl('http://127.0.0.1:0', bot, session, 41234)).toBe(`ws://127.0.0.1:41234/v1/bots/${bot}/sessions/${session}/stream`);
    expect(buildStreamUrl('http://127.0.0.1:3000', bot, session, 41234)).toBe(`ws://127.0.0.1:3000/v1/bots/${bot}/sessions/${session}/stream`);
  });

  it('encodes path segments', () => {
    expect(buildStreamUrl('http://h', 'a/b', 'c d')).toBe('ws://h/v1/bots/a%2Fb/sessions/c%20d/stream');
  });
});
