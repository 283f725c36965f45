/** The WhatsApp Business Account id the local demo gives its sender (the sandbox lists the same templates for any). */
export const SANDBOX_WABA_ID = '410000000000001';

/** A message template in the Graph API's shape (`GET /<waba-id>/message_templates`). */
export interface SandboxTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: unknown[];
}

const card = (format: 'IMAGE' | 'VIDEO', body: string, buttons: unknown[]) => ({
  components: [
    { type: 'HEADER', format, example: { header_handle: ['4::aW1hZ2U='] } },
    { type: 'BODY', text: body },
    { type: 'BUTTONS', buttons },
  ],
});

/**
 * The templates of the sandbox's WhatsApp Business Account: two carousels (quick-reply and URL
 * buttons; quick replies only), a carousel still in review, and a plain text template.
 */
export function sandboxMessageTemplates(): SandboxTemplate[] {
  return [
    {
      id: '900000000000001',
      name: 'demo_summer_carousel',
      language: 'en_US',
      status: 'APPROVED',
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Hi {{1}}, our summer picks are in.' },
        {
          type: 'CAROUSEL',
          cards: [1, 2, 3].map((i) =>
            card('IMAGE', `Pick ${i}: {{1}} off this week`, [
              { type: 'QUICK_REPLY', text: 'More like this' },
              { type: 'URL', text: 'Shop now', url: 'https://shop.example.com/item/{{1}}', example: [`https://shop.example.com/item/${i}`] },
            ]),
          ),
        },
      ],
    },
    {
      id: '900000000000002',
      name: 'order_shipped',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Your order {{1}} has shipped.' }],
    },
    {
      id: '900000000000003',
      name: 'demo_video_tour',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Conheça a loja' },
        {
          type: 'CAROUSEL',
          cards: [1, 2].map(() =>
            card('VIDEO', 'Veja', [
              { type: 'QUICK_REPLY', text: 'Quero' },
              { type: 'QUICK_REPLY', text: 'Não' },
            ]),
          ),
        },
      ],
    },
    {
      id: '900000000000004',
      name: 'demo_autumn_carousel',
      language: 'en_US',
      status: 'PENDING',
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Autumn is coming' },
        { type: 'CAROUSEL', cards: [1, 2].map(() => card('IMAGE', 'Soon', [{ type: 'QUICK_REPLY', text: 'Tell me' }])) },
      ],
    },
  ];
}
