import type { InboundMessageType, MediaReference, MessageContent } from '@platform/contracts';
import { Json, asObject, metaId, str, unixTime } from './webhook-json.js';

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
 * One entry of a notification's `value.messages[]`, sent to the business number `phoneNumberId` (the
 * value's metadata): text, button replies (a template card's quick reply), interactive replies (button
 * and list), media references and locations. Null for messages of other kinds (reactions, system
 * messages…) or without a sender, id or business number.
 */
export function readInboundMessage(raw: unknown, phoneNumberId: string | undefined): InboundWhatsAppMessage | null {
  const m = asObject(raw);
  const from = str(m?.from, 32);
  const wamid = metaId(m?.id, 512);
  const read = m && readContent(m);
  if (!phoneNumberId || !from || !/^\d{5,20}$/.test(from) || !wamid || !read) return null;
  return { phoneNumberId, from, wamid, at: unixTime(m!.timestamp), ...read };
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
