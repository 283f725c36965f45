import { consentPage, errorPage } from './consent-page.js';
import { escapeHtml } from './html.js';

describe('consent page', () => {
  const pending = {
    id: 'r'.repeat(32),
    csrf: 'c"sr<f',
    clientDbId: 'x',
    clientId: 'bci_x',
    clientName: '<img src=x onerror=alert(1)>',
    botId: 'b',
    redirectUri: 'https://app.example.com/cb',
    scope: 'bot:admin',
  };

  it('escapes every value it shows', () => {
    const html = consentPage(pending, '"><script>x</script>', '<b>err</b>', 'a"@b');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>x');
    expect(html).not.toContain('<b>err');
    expect(html).toContain('value="c&quot;sr&lt;f"');
    expect(html).toContain('value="a&quot;@b"');
    expect(html).toContain('name="request_id"');
  });

  it('escapes error pages and the usual characters', () => {
    expect(errorPage('<x>')).toContain('&lt;x&gt;');
    expect(escapeHtml(`&<>"'\``)).toBe('&amp;&lt;&gt;&quot;&#39;&#96;');
  });
});
