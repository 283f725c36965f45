import type { TemplateButtonSpec, TemplateCardSpec } from '@platform/contracts';

/** A message template as the Graph API's `GET /<waba-id>/message_templates` lists it (the fields read here). */
export interface MetaTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category?: string;
  components?: MetaComponent[];
}

export interface MetaComponent {
  type: string;
  format?: string;
  text?: string;
  cards?: Array<{ components?: MetaComponent[] }>;
  buttons?: Array<{ type: string; text?: string; url?: string }>;
}

/** A carousel template in the platform's terms. */
export interface CarouselTemplate {
  providerTemplateId: string;
  providerName: string;
  language: string;
  category: string;
  status: string;
  cardCount: number;
  cardHeaderFormat: 'image' | 'video';
  bodyParameterCount: number;
  cards: TemplateCardSpec[];
}

export type ParsedTemplate = { kind: 'carousel'; template: CarouselTemplate } | { kind: 'skipped'; reason: string };

/**
 * Reads a carousel template from Meta's shape: a top-level BODY, and a CAROUSEL whose cards each have
 * a HEADER (IMAGE or VIDEO, the same for every card), a BODY and BUTTONS. Anything else is skipped
 * with the reason (a template without a CAROUSEL is simply not one).
 */
export function parseMetaTemplate(t: MetaTemplate): ParsedTemplate {
  const components = t.components ?? [];
  const carousel = components.find((c) => c.type === 'CAROUSEL');
  if (!carousel) return { kind: 'skipped', reason: 'not a carousel' };
  const cards = carousel.cards ?? [];
  if (cards.length === 0) return { kind: 'skipped', reason: 'carousel without cards' };
  const formats = new Set(cards.map((card) => (card.components ?? []).find((c) => c.type === 'HEADER')?.format));
  const [format] = formats;
  if (formats.size !== 1 || (format !== 'IMAGE' && format !== 'VIDEO')) {
    return { kind: 'skipped', reason: 'card headers are not all IMAGE or all VIDEO' };
  }
  const texts = [components.find((c) => c.type === 'BODY')?.text, ...cards.map((card) => card.components?.find((c) => c.type === 'BODY')?.text)];
  if (texts.some((text) => text && /\{\{\s*[A-Za-z_]\w*\s*\}\}/.test(text))) {
    return { kind: 'skipped', reason: 'named parameters are not supported' };
  }
  return {
    kind: 'carousel',
    template: {
      providerTemplateId: String(t.id),
      providerName: t.name,
      language: t.language,
      category: t.category ?? 'MARKETING',
      status: t.status,
      cardCount: cards.length,
      cardHeaderFormat: format === 'IMAGE' ? 'image' : 'video',
      bodyParameterCount: placeholderCount(texts[0]),
      cards: cards.map((card) => ({
        bodyParameterCount: placeholderCount(card.components?.find((c) => c.type === 'BODY')?.text),
        buttons: (card.components?.find((c) => c.type === 'BUTTONS')?.buttons ?? []).map(toButton),
      })),
    },
  };
}

/** Distinct positional placeholders ({{1}}, {{2}}, ...) in a component's text. */
export function placeholderCount(text: string | undefined): number {
  return new Set([...(text ?? '').matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => m[1])).size;
}

function toButton(b: { type: string; text?: string; url?: string }): TemplateButtonSpec {
  return b.url === undefined ? { type: b.type, text: b.text ?? '' } : { type: b.type, text: b.text ?? '', url: b.url };
}
