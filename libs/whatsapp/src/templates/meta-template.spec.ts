import { MetaTemplate, parseMetaTemplate, placeholderCount } from './meta-template.js';
import { carouselTemplate } from './meta-template.spec-support.js';

describe('parseMetaTemplate', () => {
  it("reads a carousel's cards, header format, placeholders and buttons in Meta's order", () => {
    expect(parseMetaTemplate(carouselTemplate())).toEqual({
      kind: 'carousel',
      template: {
        providerTemplateId: '1209876543',
        providerName: 'summer_carousel',
        language: 'en_US',
        category: 'MARKETING',
        status: 'APPROVED',
        cardCount: 2,
        cardHeaderFormat: 'image',
        bodyParameterCount: 2,
        cards: [1, 2].map(() => ({
          bodyParameterCount: 1,
          buttons: [
            { type: 'QUICK_REPLY', text: 'More like this' },
            { type: 'URL', text: 'Shop', url: 'https://shop.example/item/{{1}}' },
          ],
        })),
      },
    });
  });

  it('reads video headers and cards without buttons or placeholders', () => {
    const t = carouselTemplate();
    t.components = [
      { type: 'BODY', text: 'New arrivals' },
      {
        type: 'CAROUSEL',
        cards: [
          {
            components: [
              { type: 'HEADER', format: 'VIDEO' },
              { type: 'BODY', text: 'One' },
            ],
          },
        ],
      },
    ];
    const parsed = parseMetaTemplate(t);
    expect(parsed.kind === 'carousel' && parsed.template).toMatchObject({ cardHeaderFormat: 'video', bodyParameterCount: 0, cards: [{ bodyParameterCount: 0, buttons: [] }] });
  });

  it('skips what is not a carousel the platform can send, saying why', () => {
    const plain: MetaTemplate = { id: '1', name: 'order_update', language: 'en_US', status: 'APPROVED', components: [{ type: 'BODY', text: 'Order {{1}} shipped' }] };
    expect(parseMetaTemplate(plain)).toEqual({ kind: 'skipped', reason: 'not a carousel' });
    const mixed = carouselTemplate();
    mixed.components![1].cards![1].components![0].format = 'VIDEO';
    expect(parseMetaTemplate(mixed)).toEqual({ kind: 'skipped', reason: 'card headers are not all IMAGE or all VIDEO' });
    const named = carouselTemplate();
    named.components![0].text = 'Hi {{first_name}}';
    expect(parseMetaTemplate(named)).toEqual({ kind: 'skipped', reason: 'named parameters are not supported' });
  });

  it('counts distinct positional placeholders', () => {
    expect(placeholderCount('{{1}} and {{2}} and {{1}}')).toBe(2);
    expect(placeholderCount(undefined)).toBe(0);
  });
});
