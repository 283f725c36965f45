import type { AttachmentContent, CarouselCard, ConversationMessageView, QuickReply } from '@platform/contracts';
import type { Outgoing } from './outbox.js';

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

// http(s) addresses in text; trailing punctuation is the sentence's, not the address's.
const LINK = /\bhttps?:\/\/[^\s<>"']+/gi;
const TRAILING = /[.,;:!?)\]}'"]+$/;

/** Text with its http(s) addresses as links that open in a new tab without access to this page. */
export function linkedText(text: string): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const raw = match[0].replace(TRAILING, '');
    const href = safeUrl(raw);
    const start = match.index ?? 0;
    if (!href || !raw) continue;
    if (start > last) nodes.push(document.createTextNode(text.slice(last, start)));
    const a = el('a', undefined, raw);
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    nodes.push(a);
    last = start + raw.length;
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return nodes;
}

/** "14:05", or "3 Mar, 14:05" for another day, in the reader's locale. */
export function timeLabel(iso: string, now = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === now.toDateString() ? time : `${at.toLocaleDateString([], { day: 'numeric', month: 'short' })}, ${time}`;
}

// The time is drawn by CSS (attr(data-label)) so that a message's text stays its words alone for whatever reads the page's DOM.
function meta(iso: string): HTMLElement {
  const line = el('span', 'meta');
  const time = el('time');
  time.dateTime = iso;
  time.dataset.label = timeLabel(iso);
  line.append(time);
  return line;
}

/** The user's bubble for a message not yet confirmed: shown at once, updated by `showOutgoingState`. */
export function renderOutgoing(item: Outgoing, onRetry: (clientId: string) => void): HTMLElement {
  const bubble = el('div', 'msg user');
  bubble.dataset.clientId = item.clientId;
  bubble.append(el('span', 'sr-only', 'You: '), ...linkedText(item.text));
  const line = meta(item.createdAt);
  const state = el('span', 'state');
  line.append(state);
  bubble.append(line);
  state.addEventListener('click', (e) => {
    if ((e.target as HTMLElement).closest('button')) onRetry(item.clientId);
  });
  showOutgoingState(bubble, item, navigator.onLine);
  return bubble;
}

/** Sending / waiting for the connection / failed – tap to retry; nothing once the server has it. */
export function showOutgoingState(bubble: HTMLElement, item: Outgoing | undefined, online: boolean): void {
  const state = bubble.querySelector<HTMLElement>('.state');
  if (!state) return;
  bubble.classList.toggle('pending', item?.state === 'pending' || item?.state === 'sending');
  bubble.classList.toggle('failed', item?.state === 'failed');
  if (!item) return state.replaceChildren();
  if (item.state === 'failed') {
    const retry = el('button', 'retry', 'Failed – tap to retry');
    retry.type = 'button';
    if (item.error) retry.title = item.error;
    state.replaceChildren(retry);
    return;
  }
  state.textContent = item.state === 'sending' ? ' · Sending…' : online ? ' · Waiting to send' : ' · Waiting for connection';
}

let botName = 'Bot';

/** The bot's display name, read before each of its messages by screen readers (and shown beside them). */
export function setBotName(name: string): void {
  botName = name;
}

/** "1.2 MB", "340 KB", "12 bytes". */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** A document icon (SVG: an emoji would be an empty box on hosts without an emoji font). */
function fileIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M6 2h8l6 6v12a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zm7 1.5V9h5.5L13 3.5z');
  svg.append(path);
  return svg;
}

/** "name (size)" after a document icon. */
function fileLabel<K extends 'a' | 'span'>(tag: K, file: { name: string; size: number }): HTMLElementTagNameMap[K] {
  const node = el(tag, 'attachment file');
  node.append(fileIcon(), document.createTextNode(` ${file.name} (${sizeLabel(file.size)})`));
  return node;
}

/** A file the user sent: a picture shown, any other file a download link (never opened by the page). */
function attachment(content: AttachmentContent): HTMLElement | undefined {
  const url = safeUrl(content.url);
  if (!url) return undefined;
  const name = String(content.filename ?? 'file');
  if (String(content.mimeType).startsWith('image/')) {
    const link = el('a', 'attachment');
    link.href = url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.append(image(url, name));
    return link;
  }
  const link = fileLabel('a', { name, size: Number(content.size) || 0 });
  link.href = url;
  link.download = name;
  link.rel = 'noopener noreferrer';
  return link;
}

/** The user's bubble for a file being sent: its name until the server has it. */
export function renderUpload(clientId: string, file: { name: string; size: number }, createdAt: string): HTMLElement {
  const bubble = el('div', 'msg user pending');
  bubble.dataset.clientId = clientId;
  bubble.append(el('span', 'sr-only', 'You: '), fileLabel('span', file));
  const line = meta(createdAt);
  line.append(el('span', 'state', ' · Sending…'));
  bubble.append(line);
  return bubble;
}

/** The upload bubble once the server has it (its content shown as sent), or refused (the server's reason). */
export function settleUpload(bubble: HTMLElement, view: ConversationMessageView | undefined, problem?: string): void {
  bubble.classList.remove('pending');
  const state = bubble.querySelector<HTMLElement>('.state');
  if (!view) {
    bubble.classList.add('failed');
    if (state) state.textContent = ` · Not sent: ${problem ?? 'the file could not be sent'}`;
    return;
  }
  bubble.dataset.id = view.id;
  const shown = view.content.attachment ? attachment(view.content.attachment) : undefined;
  if (shown) bubble.querySelector('.attachment')?.replaceWith(shown);
  state?.remove();
}

/** The elements of one message (a bubble, then its quick replies or cards), appended in order. */
export function renderMessage(view: ConversationMessageView, onReply: ReplyHandler): HTMLElement[] {
  const content = view.content ?? {};
  const who = view.direction === 'inbound' ? 'user' : 'bot';
  const nodes: HTMLElement[] = [];
  const bubble = el('div', `msg ${who}`);
  bubble.dataset.id = view.id;
  const label = el('span', 'sr-only', who === 'user' ? 'You: ' : `${botName}: `);
  bubble.append(label);
  if (typeof content.text === 'string') bubble.append(...linkedText(content.text));
  const img = safeUrl(content.image?.url);
  if (img) {
    bubble.append(image(img, content.image?.caption ?? 'Image from the bot'));
    if (content.image?.caption) bubble.append(el('p', 'caption', content.image.caption));
  }
  const file = content.attachment ? attachment(content.attachment) : undefined;
  if (file) bubble.append(file);
  if (content.location) bubble.append(document.createTextNode(`📍 ${content.location.name ?? ''} ${content.location.latitude}, ${content.location.longitude}`.trim()));
  if (content.media) bubble.append(document.createTextNode(`[${content.media.kind}] ${content.media.caption ?? ''}`.trim()));
  if (bubble.childNodes.length > 1) {
    bubble.append(meta(view.createdAt));
    nodes.push(bubble);
  }
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
