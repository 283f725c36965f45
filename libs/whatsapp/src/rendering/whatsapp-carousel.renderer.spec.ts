import { renderCarouselMessage } from './whatsapp-carousel.renderer.js';

describe('renderCarouselMessage', () => {
  const template = { providerName: 'promo', language: 'pt_BR', cardHeaderFormat: 'video' as const };

  it('renders one card per entry with the header media type of the template', () => {
    const body = renderCarouselMessage(template, '5511999999999', [{ mediaLink: 'https://v/1.mp4' }, { mediaLink: 'https://v/2.mp4', bodyParameters: ['R$10', 'today'] }]);
    expect(body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5511999999999',
      type: 'template',
      template: {
        name: 'promo',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'carousel',
            cards: [
              { card_index: 0, components: [{ type: 'header', parameters: [{ type: 'video', video: { link: 'https://v/1.mp4' } }] }] },
              {
                card_index: 1,
                components: [
                  { type: 'header', parameters: [{ type: 'video', video: { link: 'https://v/2.mp4' } }] },
                  {
                    type: 'body',
                    parameters: [
                      { type: 'text', text: 'R$10' },
                      { type: 'text', text: 'today' },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    });
  });

  it('uses image headers for image templates', () => {
    const body = renderCarouselMessage({ ...template, cardHeaderFormat: 'image' }, '1', [{ mediaLink: 'https://i/1.png' }]);
    expect(body.template.components[0].cards![0].components[0]).toEqual({
      type: 'header',
      parameters: [{ type: 'image', image: { link: 'https://i/1.png' } }],
    });
  });

  it('renders the message body parameters, then each card button by its index in the template card', () => {
    const body = renderCarouselMessage(
      { ...template, cardHeaderFormat: 'image' },
      '1',
      [
        {
          mediaLink: 'https://i/1.png',
          bodyParameters: ['10%'],
          buttons: [
            { type: 'quick_reply', index: 0, payload: 'more-1' },
            { type: 'url', index: 2, text: 'item/1' },
          ],
        },
      ],
      ['Ana'],
    );
    expect(body.template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
      {
        type: 'carousel',
        cards: [
          {
            card_index: 0,
            components: [
              { type: 'header', parameters: [{ type: 'image', image: { link: 'https://i/1.png' } }] },
              { type: 'body', parameters: [{ type: 'text', text: '10%' }] },
              { type: 'button', sub_type: 'quick_reply', index: 0, parameters: [{ type: 'payload', payload: 'more-1' }] },
              { type: 'button', sub_type: 'url', index: 2, parameters: [{ type: 'text', text: 'item/1' }] },
            ],
          },
        ],
      },
    ]);
  });
});
