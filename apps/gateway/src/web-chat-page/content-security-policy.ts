/**
 * The chat page's policy: its own script and style only (no inline code), the API and the event stream
 * (`streamOrigin`, the ws(s) form of BASE_URL) to talk to, images from anywhere a bot may host them,
 * and framing by any site (the embed opens the page in an iframe).
 */
export function chatPagePolicy(streamOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self' ${streamOrigins.join(' ')}`.trim(),
    "img-src 'self' https: http: data:",
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
}

/** ws(s)://host[:port] of an http(s) address (the event stream's origin). */
export function wsOrigin(httpUrl: string, boundPort?: number): string | undefined {
  try {
    const url = new URL(httpUrl);
    if (url.port === '0' && boundPort) url.port = String(boundPort);
    return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
  } catch {
    return undefined;
  }
}
