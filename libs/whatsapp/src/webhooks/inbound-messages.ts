import type { InboundMessageType, MediaReference, MessageContent } from '@platform/contracts';

type Json = Record<string, unknown>;

const asObject = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown, max = 4096): string | undefined => (typeof v === 'string' && v !== '' ? v.slice(0, max) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);

/** One message a user sent to a business number, as the bot will see it. */
export interface InboundWhatsAppMessage {
  /** The business number's id (which bot's sender received it). */
  phoneNumberId: string;
  /** The user's WhatsApp id (their number, digits). */
  from: string;
  wamid: string;
  at: Date;
  type: InboundMessageType;
  content: MessageContent;
}

const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;

/**
 * The messages of a WhatsApp Business Account notification (`entry[].changes[field=messages].value.messages[]`):
 * text, button replies (a template card's quick reply), interactive replies (button and list), media
 * references and locations. `skipped` counts messages of other kinds (reactions, system messages…) or
 * without a sender, id or business number.
 */
export function readInboundMessages(notification: unknown): { messages: InboundWhatsAppMessage[]; skipped: number } {
  const messages: InboundWhatsAppMessage[] = [];
  let skipped = 0;
  const body = asObject(notification);
  if (body?.object !== 'whatsapp_business_account') return { messages, skipped };
  for (const entry of asArray(body.entry)) {
    for (const change of asArray(asObject(entry)?.changes)) {
      if (asObject(change)?.field !== 'messages') continue;
      const value = asObject(asObject(change)?.value);
      const phoneNumberId = str(asObject(value?.metadata)?.phone_number_id, 64);
      for (const raw of asArray(value?.messages)) {
        const m = asObject(raw);
        const from = str(m?.from, 32);
        const wamid = str(m?.id, 512);
        const read = m && readContent(m);
        if (!phoneNumberId || !from || !/^\d{5,20}$/.test(from) || !wamid || !read) {
          skipped++;
          continue;
        }
        const seconds = typeof m!.timestamp === 'string' && /^\d{1,12}$/.test(m!.timestamp) ? Number(m!.timestamp) : undefined;
        messages.push({ phoneNumberId, from, wamid, at: seconds === undefined ? new Date() : new Date(seconds * 1000), ...read });
      }
    }
  }
  return { messages, skipped };
}

function readContent(m: Json): { type: InboundMessageType; content: MessageContent } | null {
  switch (m.type) {
    case 'text': {
      const text = str(asObject(m.text)?.body);
      return text ? { type: 'text', content: { text } } : null;
    }
    case 'button': {
      const b = asObject(m.button);
      const text = str(b?.text);
      return text ? { type: 'button', content: { text, payload: str(b?.payload, 1024) ?? text } } : null;
    }
    case 'interactive': {
      const i = asObject(m.interactive);
      const reply = asObject(i?.button_reply) ?? asObject(i?.list_reply);
      const text = str(reply?.title);
      return text ? { type: 'interactive', content: { text, payload: str(reply?.id, 1024) ?? text } } : null;
    }
    case 'location': {
      const l = asObject(m.location);
      const latitude = num(l?.latitude);
      const longitude = num(l?.longitude);
      if (latitude === undefined || longitude === undefined) return null;
      const name = str(l?.name, 1000);
      const address = str(l?.address, 1000);
      return { type: 'location', content: { location: { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) } } };
    }
    default: {
      const kind = MEDIA_KINDS.find((k) => k === m.type);
      const media = kind && asObject(m[kind]);
      const id = str(media?.id, 256);
      if (!kind || !id) return null;
      const ref: MediaReference = { kind, id };
      const mimeType = str(media!.mime_type, 255);
      const caption = str(media!.caption);
      const filename = str(media!.filename, 255);
      if (mimeType) ref.mimeType = mimeType;
      if (caption) ref.caption = caption;
      if (filename) ref.filename = filename;
      return { type: 'media', content: { media: ref, ...(caption ? { text: caption } : {}) } };
    }
  }
}
