import type { FastifyReply } from 'fastify';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

/** Sends a server-rendered page: not cacheable, not frameable, no scripts, no referrer. */
export function sendPage(reply: FastifyReply, status: number, html: string, formActions: string[] = []): void {
  reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header(
      'content-security-policy',
      // form-action also governs the redirect that answers the form, so the client's origin is listed.
      `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'${formActions.map((a) => ` ${a}`).join('')}`,
    )
    .send(html);
}

export function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
.actions{margin-top:1.25rem;display:flex;gap:.75rem}button{padding:.5rem 1rem}.error{color:#b00020}
code{background:#f3f3f3;padding:0 .25rem}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
