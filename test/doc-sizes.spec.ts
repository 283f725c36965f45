import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The sizes the docs state are the built ones: the console's first load and its chart chunk
 * (docs/console.md, gzip -9 of `npm run build:console`'s output) and the hosted chat page (docs/conversations.md,
 * gzip -9 of the HTML, script and style `tools/build-web-chat.mjs` writes, as its WEB_CHAT_SIZE line counts them); the SDK packages' table in docs/sdk.md
 * is checked by tools/check-sdk-sizes.mjs. KB is 1000 bytes, as the docs count. A stated figure may be off by 5 % (or 0.2 KB),
 * so that a small change does not need the docs rewritten; past that, update the figure in the doc.
 */
const KB = 1000;
const close = (stated: number, bytes: number) => Math.abs(stated * KB - bytes) <= Math.max(0.05 * bytes, 0.2 * KB);
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).byteLength;
const doc = (name: string) => readFileSync(join('docs', name), 'utf8');
const number = (text: string, pattern: RegExp, what: string): number[] => {
  const m = pattern.exec(text);
  if (!m) throw new Error(`${what}: the sentence that states it (${pattern}) is gone from the doc; keep this check in step`);
  return m.slice(1).map(Number);
};

describe('sizes stated in the docs', () => {
  const dir = join('dist', 'console');
  const assets = join(dir, 'assets');

  it("docs/console.md: the console's first load and its chart chunk", () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    // The first load: what index.html names (its script, its modulepreloads, its style sheets).
    const named = [...html.matchAll(/(?:src|href)="\/console\/assets\/([^"]+)"/g)].map((m) => m[1]);
    const scripts = named.filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(join(assets, f)), 0);
    const styles = named.filter((f) => f.endsWith('.css')).reduce((n, f) => n + gz(join(assets, f)), 0);
    const charts = readdirSync(assets).filter((f) => f.startsWith('overview-charts-'));
    const chartScript = charts.filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(join(assets, f)), 0);
    const chartStyle = charts.filter((f) => f.endsWith('.css')).reduce((n, f) => n + gz(join(assets, f)), 0);
    const measured = `first load ${(scripts / KB).toFixed(1)} KB of script, ${(styles / KB).toFixed(1)} KB of style, ${((scripts + styles) / KB).toFixed(1)} KB in all; charts ${(chartScript / KB).toFixed(1)} KB + ${(chartStyle / KB).toFixed(1)} KB`;

    const text = doc('console.md');
    const [script, style, all] = number(text, /is ([\d.]+) KB of script and ([\d.]+) KB of style, ([\d.]+) KB in all/, "the console's first load");
    const [cScript, cStyle] = number(text, /a chunk of their own, ([\d.]+) KB of script and ([\d.]+) KB of style/, 'the chart chunk');
    expect({ script: close(script, scripts), style: close(style, styles), all: close(all, scripts + styles), measured }).toEqual({ script: true, style: true, all: true, measured });
    expect({ chartScript: close(cScript, chartScript), chartStyle: close(cStyle, chartStyle), measured }).toEqual({ chartScript: true, chartStyle: true, measured });
    const qr = readdirSync(assets)
      .filter((f) => f.startsWith('qrcode-') && f.endsWith('.js'))
      .reduce((n, f) => n + gz(join(assets, f)), 0);
    const [qrScript] = number(text, /QR encoder \(`qrcode-generator`\) is another, ([\d.]+) KB of script/, "the two-factor enrolment's QR chunk");
    expect({ qr: close(qrScript, qr), measured: `${(qr / KB).toFixed(1)} KB` }).toEqual({ qr: true, measured: `${(qr / KB).toFixed(1)} KB` });
    expect(named.some((f) => f.startsWith('qrcode-'))).toBe(false);
  });

  it('docs/conversations.md: the hosted chat page', () => {
    const dir = join('dist', 'web-chat');
    const bytes = ['chat.js', 'chat.css', 'index.html'].reduce((n, f) => n + gz(join(dir, f)), 0);
    const [stated] = number(doc('conversations.md'), /\(the page, its HTML, script and style, is ([\d.]+) KB gzipped\)/, 'the chat page');
    expect({ page: close(stated, bytes), measured: `${(bytes / KB).toFixed(1)} KB` }).toEqual({ page: true, measured: `${(bytes / KB).toFixed(1)} KB` });
  });
});
