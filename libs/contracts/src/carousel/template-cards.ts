/** A button of a carousel card as Meta approved it (`type` as Meta names it: QUICK_REPLY, URL, PHONE_NUMBER, ...). */
export interface TemplateButtonSpec {
  type: string;
  text: string;
  /** URL buttons: the approved URL, with `{{1}}` where a dynamic suffix goes. */
  url?: string;
}

/** One card of a synced carousel template: what a trigger must supply for it. */
export interface TemplateCardSpec {
  /** {{n}} placeholders of the card's body. */
  bodyParameterCount: number;
  /** The card's buttons in Meta's order. */
  buttons: TemplateButtonSpec[];
}

/** What a trigger gives a card button: a quick-reply payload or a URL button's dynamic suffix. */
export type ButtonValueKind = 'quick_reply' | 'url';

/**
 * The value a template button takes at send time, or null when it takes none (a static URL, a phone
 * number): a trigger's `buttons` list one value per button that takes one, in the template's order.
 */
export function buttonValueKind(button: TemplateButtonSpec): ButtonValueKind | null {
  if (button.type === 'QUICK_REPLY') return 'quick_reply';
  if (button.type === 'URL' && button.url?.includes('{{1}}')) return 'url';
  return null;
}
