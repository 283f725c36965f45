/** Pictures the chat page shows inline (never SVG: it can carry script). */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** Other files a user may send: offered for download only. */
export const DOCUMENT_TYPES = ['application/pdf', 'text/plain'] as const;

const starts = (bytes: Buffer, prefix: number[], at = 0) => bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);

/** The picture type the bytes are (by their signature), or undefined: a declared type is never trusted alone. */
export function sniffPicture(bytes: Buffer): (typeof PICTURE_TYPES)[number] | undefined {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(bytes, [0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts(bytes, [0x52, 0x49, 0x46, 0x46]) && starts(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/**
 * The type the file is stored and served as when the bytes match what the sender declared (the part
 * before any `;`), else undefined: pictures by signature, PDF by its header, text as UTF-8 without NUL.
 */
export function checkedType(declared: string | undefined, bytes: Buffer): string | undefined {
  const type = (declared ?? '').split(';')[0].trim().toLowerCase();
  if ((PICTURE_TYPES as readonly string[]).includes(type)) return sniffPicture(bytes) === type ? type : undefined;
  if (type === 'application/pdf') return starts(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d]) ? type : undefined; // %PDF-
  if (type === 'text/plain') {
    if (bytes.includes(0)) return undefined;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      return type;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A file name safe to store and show: no path, no control or quote characters, at most 120 characters. */
export function safeFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // Control characters would break the Content-Disposition header and the page's line.
  // eslint-disable-next-line no-control-regex
  const unsafe = /[\u0000-\u001f\u007f"<>]/g;
  const clean = base.replace(unsafe, '').trim().slice(0, 120);
  return clean === '' || clean === '.' || clean === '..' ? fallback : clean;
}
