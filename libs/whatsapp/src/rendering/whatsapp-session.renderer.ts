import type { MessageContent, QuickReply } from '@platform/contracts';

const replyButton = (q: QuickReply) => ({ type: 'reply', reply: { id: q.payload.slice(0, 256), title: q.title.slice(0, 20) } });

/**
 * A bot reply as a WhatsApp Cloud API session message (allowed inside the 24-hour customer-service
 * window): text; text with quick replies as an interactive reply-button message (at most 3); an
 * image with its caption; a carousel as an interactive media carousel whose cards carry quick-reply
 * buttons (WhatsApp wants an image on every card and at least 2 cards, so a card without one, or a
 * single card, goes as a reply-button message per card instead: see renderWhatsAppSession).
 */
export function renderWhatsAppSession(to: string, type: string, content: MessageContent): object[] {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to };
  if (type === 'image' && content.image) {
    return [{ ...base, type: 'image', image: { link: content.image.url, ...(content.image.caption ? { caption: content.image.caption } : {}) } }];
  }
  if (type === 'carousel' && content.cards?.length) {
    const cards = content.cards;
    if (cards.length >= 2 && cards.every((c) => c.imageUrl)) {
      return [
        {
          ...base,
          type: 'interactive',
          interactive: {
            type: 'carousel',
            body: { text: cards[0].title },
            action: {
              cards: cards.map((c, i) => ({
                card_index: i,
                type: 'quick_reply',
                header: { type: 'image', image: { link: c.imageUrl } },
                body: { text: [c.title, c.subtitle].filter(Boolean).join('\n') },
                action: { buttons: c.buttons.slice(0, 2).map((b) => ({ type: 'quick_reply', quick_reply: { id: b.payload.slice(0, 256), title: b.title.slice(0, 20) } })) },
              })),
            },
          },
        },
      ];
    }
    return cards.map((c) => cardAsButtons(base, c.title, c.subtitle, c.imageUrl, c.buttons));
  }
  const text = content.text ?? '';
  if (content.quickReplies?.length) {
    return [{ ...base, type: 'interactive', interactive: { type: 'button', body: { text }, action: { buttons: content.quickReplies.slice(0, 3).map(replyButton) } } }];
  }
  return [{ ...base, type: 'text', text: { body: text, preview_url: false } }];
}

function cardAsButtons(base: object, title: string, subtitle: string | undefined, imageUrl: string | undefined, buttons: QuickReply[]): object {
  const body = { text: [title, subtitle].filter(Boolean).join('\n') };
  if (buttons.length === 0) {
    return imageUrl ? { ...base, type: 'image', image: { link: imageUrl, caption: body.text } } : { ...base, type: 'text', text: { body: body.text } };
  }
  return {
    ...base,
    type: 'interactive',
    interactive: {
      type: 'button',
      ...(imageUrl ? { header: { type: 'image', image: { link: imageUrl } } } : {}),
      body,
      action: { buttons: buttons.slice(0, 3).map(replyButton) },
    },
  };
}
