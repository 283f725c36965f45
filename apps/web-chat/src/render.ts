import type { CarouselCard, ConversationMessageView, QuickReply } from '@platform/contracts';

/** Builds message elements with textContent only: nothing a bot or user sends is parsed as HTML. */
export type ReplyHandler = (reply: QuickReply) => void;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An http(s) address, or undefined (javascript:, data: and the like are never loaded). */
function safeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value, location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function image(src: string, alt: string): HTMLImageElement {
  const img = el('img');
  img.src = src;
  img.alt = alt;
  img.loading = 'lazy';
  img.decoding = 'async';
  img.referrerPolicy = 'no-referrer';
  return img;
}

function replyButton(reply: QuickReply, className: string, onReply: ReplyHandler): HTMLButtonElement {
  const button = el('button', className, String(reply.title ?? ''));
  button.type = 'button';
  button.addEventListener('click', () => onReply({ title: String(reply.title ?? ''), payload: String(reply.payload ?? reply.title ?? '') }));
  return button;
}

/** The elements of one message (a bubble, then its quick replies or cards), appended in order. */
export function renderMessage(view: ConversationMessageView, onReply: ReplyHandler): HTMLElement[] {
  const content = view.content ?? {};
  const who = view.direction === 'inbound' ? 'user' : 'bot';
  const nodes: HTMLElement[] = [];
  const bubble = el('div', `msg ${who}`);
  bubble.dataset.id = view.id;
  const label = el('span', 'sr-only', who === 'user' ? 'You: ' : 'Bot: ');
  bubble.append(label);
  if (typeof content.text === 'string') bubble.append(document.createTextNode(content.text));
  const img = safeUrl(content.image?.url);
  if (img) {
    bubble.append(image(img, content.image?.caption ?? 'Image from the bot'));
    if (content.image?.caption) bubble.append(el('p', 'caption', content.image.caption));
  }
  if (content.location) bubble.append(document.createTextNode(`📍 ${content.location.name ?? ''} ${content.location.latitude}, ${content.location.longitude}`.trim()));
  if (content.media) bubble.append(document.createTextNode(`[${content.media.kind}] ${content.media.caption ?? ''}`.trim()));
  if (bubble.childNodes.length > 1) nodes.push(bubble);
  if (Array.isArray(content.quickReplies) && content.quickReplies.length > 0) {
    const group = el('div', 'replies');
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', 'Quick replies');
    for (const reply of content.quickReplies) group.append(replyButton(reply, 'chip', onReply));
    nodes.push(group);
  }
  if (Array.isArray(content.cards) && content.cards.length > 0) nodes.push(renderCards(content.cards, onReply));
  return nodes;
}

function renderCards(cards: CarouselCard[], onReply: ReplyHandler): HTMLElement {
  const list = el('ul', 'cards');
  list.setAttribute('aria-label', `Carousel of ${cards.length} cards`);
  cards.forEach((card, i) => {
    const item = el('li', 'card');
    item.setAttribute('aria-label', `Card ${i + 1} of ${cards.length}: ${card.title ?? ''}`);
    const src = safeUrl(card.imageUrl);
    if (src) item.append(image(src, String(card.title ?? '')));
    const body = el('div', 'card-body');
    body.append(el('p', 'card-title', String(card.title ?? '')));
    if (card.subtitle) body.append(el('p', 'card-subtitle', String(card.subtitle)));
    for (const button of Array.isArray(card.buttons) ? card.buttons : []) body.append(replyButton(button, '', onReply));
    item.append(body);
    list.append(item);
  });
  return list;
}
