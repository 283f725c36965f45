import type { MessageContent } from './message-content.js';

const MEDIA_KINDS: Record<string, string> = { image: 'Picture', video: 'Video', audio: 'Audio', document: 'Document', sticker: 'Sticker' };

/** What kind of file a MIME type is, as a person names it. */
function kindOfType(mimeType: string): string {
  if (mimeType.startsWith('image/')) return 'Picture';
  if (mimeType === 'application/pdf') return 'PDF document';
  if (mimeType.startsWith('text/')) return 'Text file';
  if (mimeType.startsWith('video/')) return 'Video';
  if (mimeType.startsWith('audio/')) return 'Audio';
  return 'File';
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/**
 * A file the user sent, in one line: its kind and, when the message has them, its name, size and caption
 * ("PDF document: invoice.pdf (120 KB)", "Picture, caption: the crack"); null for a message without a file.
 * The inbox's transcript and its list show it where a bare type ("attachment", "media") told an agent nothing.
 */
export function fileLabel(content: MessageContent | null | undefined): string | null {
  const a = content?.attachment;
  if (a && typeof a === 'object') {
    const kind = typeof a.mimeType === 'string' ? kindOfType(a.mimeType) : 'File';
    const name = typeof a.filename === 'string' && a.filename ? `: ${a.filename}` : '';
    return `${kind}${name}${typeof a.size === 'number' ? ` (${size(a.size)})` : ''}`;
  }
  const m = content?.media;
  if (m && typeof m === 'object') {
    const kind = MEDIA_KINDS[m.kind] ?? (typeof m.mimeType === 'string' ? kindOfType(m.mimeType) : 'File');
    const name = typeof m.filename === 'string' && m.filename ? `: ${m.filename}` : '';
    return `${kind}${name}${typeof m.caption === 'string' && m.caption ? `, caption: ${m.caption}` : ''}`;
  }
  return null;
}
