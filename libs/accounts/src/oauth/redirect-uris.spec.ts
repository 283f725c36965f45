import { buildRedirect, redirectUriProblem } from './redirect-uris.js';

describe('redirect URIs', () => {
  it.each(['https://app.example.com/cb', 'https://app.example.com/cb?x=1', 'http://127.0.0.1:8080/cb', 'http://[::1]/cb', 'http://localhost:3000/cb', 'com.example.app:/oauth'])('accepts %s', (uri) =>
    expect(redirectUriProblem(uri)).toBeNull(),
  );

  it.each([
    ['http://app.example.com/cb', /https/],
    ['https://app.example.com/cb#x', /fragment/],
    ['/cb', /absolute/],
    ['https://user:pw@app.example.com/cb', /credentials/],
    ['javascript:alert(1)', /private-use/],
    ['data:text/html,x', /private-use/],
    ['myapp:/cb', /private-use/],
  ])('refuses %s', (uri, problem) => expect(redirectUriProblem(uri)).toMatch(problem));

  it('adds answer parameters and keeps the registered query', () => {
    const url = new URL(buildRedirect('https://app.example.com/cb?tenant=7', { code: 'c&d', state: 'a b', iss: undefined }));
    expect(url.searchParams.get('tenant')).toBe('7');
    expect(url.searchParams.get('code')).toBe('c&d');
    expect(url.searchParams.get('state')).toBe('a b');
    expect(url.searchParams.has('iss')).toBe(false);
  });
});
