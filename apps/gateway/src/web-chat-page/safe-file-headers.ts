/**
 * Headers for a file a user or bot uploaded: its checked type, never sniffed; no script even if
 * opened directly (CSP sandbox); pictures shown inline, any other file only downloaded.
 */
export function safeFileHeaders(type: string, fileName: string): Record<string, string> {
  const disposition = type.startsWith('image/') ? 'inline' : 'attachment';
  return {
    'content-type': type === 'text/plain' ? 'text/plain; charset=utf-8' : type,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'content-disposition': `${disposition}; filename="${fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    'cross-origin-resource-policy': 'same-site',
  };
}
