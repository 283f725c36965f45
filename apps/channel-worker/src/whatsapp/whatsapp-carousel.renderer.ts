import { CarouselDispatchJob } from '@platform/contracts';

export interface CarouselTemplateInfo {
  providerName: string;
  language: string;
  cardHeaderFormat: 'image' | 'video';
}

/** The Cloud API request body of a carousel template message (one header media per card). */
export function renderCarouselMessage(template: CarouselTemplateInfo, recipient: string, cards: CarouselDispatchJob['cards']) {
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
        {
          type: 'carousel',
          cards: cards.map((card, index) => ({
            card_index: index,
            components: [
              { type: 'header', parameters: [{ type: format, [format]: { link: card.mediaLink } }] },
              ...(card.bodyParameters?.length
                ? [{ type: 'body', parameters: card.bodyParameters.map((text) => ({ type: 'text', text })) }]
                : []),
            ],
          })),
        },
      ],
    },
  };
}
