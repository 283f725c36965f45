import { CarouselDispatchJob, DispatchButton } from '@platform/contracts';

export interface CarouselTemplateInfo {
  providerName: string;
  language: string;
  cardHeaderFormat: 'image' | 'video';
}

/**
 * The Cloud API request body of a carousel template message: the message body's parameters, then per
 * card its header media, body parameters and button values.
 */
export function renderCarouselMessage(template: CarouselTemplateInfo, recipient: string, cards: CarouselDispatchJob['cards'], bodyParameters?: string[]) {
  const format = template.cardHeaderFormat;
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: recipient,
    type: 'template',
    template: {
      name: template.providerName,
      language: { code: template.language },
      components: [
        ...(bodyParameters?.length ? [{ type: 'body', parameters: bodyParameters.map((text) => ({ type: 'text', text })) }] : []),
        {
          type: 'carousel',
          cards: cards.map((card, index) => ({
            card_index: index,
            components: [
              { type: 'header', parameters: [{ type: format, [format]: { link: card.mediaLink } }] },
              ...(card.bodyParameters?.length ? [{ type: 'body', parameters: card.bodyParameters.map((text) => ({ type: 'text', text })) }] : []),
              ...(card.buttons ?? []).map(renderButton),
            ],
          })),
        },
      ],
    },
  };
}

function renderButton(button: DispatchButton) {
  return button.type === 'quick_reply'
    ? { type: 'button', sub_type: 'quick_reply', index: button.index, parameters: [{ type: 'payload', payload: button.payload }] }
    : { type: 'button', sub_type: 'url', index: button.index, parameters: [{ type: 'text', text: button.text }] };
}
