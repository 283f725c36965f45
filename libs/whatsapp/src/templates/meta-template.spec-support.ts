import type { MetaTemplate } from './meta-template.js';

/** Meta's carousel template object, as GET /<waba-id>/message_templates lists it. */
export const carouselTemplate = (): MetaTemplate => ({
  id: '1209876543',
  name: 'summer_carousel',
  language: 'en_US',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    { type: 'BODY', text: 'Hi {{1}}, our summer picks are here. Use {{2}} at checkout, {{1}}!' },
    {
      type: 'CAROUSEL',
      cards: [1, 2].map((i) => ({
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: `Card ${i}: {{1}} off` },
          {
            type: 'BUTTONS',
            buttons: [
              { type: 'QUICK_REPLY', text: 'More like this' },
              { type: 'URL', text: 'Shop', url: 'https://shop.example/item/{{1}}' },
            ],
          },
        ],
      })),
    },
  ],
});
