import { chatPagePolicy, wsOrigin } from './content-security-policy.js';

describe('chat page Content-Security-Policy', () => {
  it('allows no inline script and only its own script, and the event stream origin', () => {
    const policy = chatPagePolicy(['wss://chat.example.com']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("connect-src 'self' wss://chat.example.com");
  });

  it('turns http(s) addresses into ws(s) origins, with the bound port in place of 0', () => {
    expect(wsOrigin('https://api.example.com/prefix')).toBe('wss://api.example.com');
    expect(wsOrigin('http://127.0.0.1:0', 4123)).toBe('ws://127.0.0.1:4123');
    expect(wsOrigin('not a url')).toBeUndefined();
  });
});
