import { CampaignMapping, TemplateCardSpec } from '@platform/contracts';
import { RowMapper, mappedColumns, mappingProblem } from './row-mapper.js';

const cards: TemplateCardSpec[] = [
  { bodyParameterCount: 1, buttons: [{ type: 'QUICK_REPLY', text: 'Buy' }] },
  { bodyParameterCount: 0, buttons: [{ type: 'URL', text: 'Open', url: 'https://shop.example/{{1}}' }] },
];
const template = { bodyParameterCount: 1, cards, cardCount: 2 };
const mapping: CampaignMapping = {
  number: 'phone',
  timeZone: 'tz',
  bodyParameters: ['name'],
  cards: [
    { mediaLink: 'img', bodyParameters: ['price'], buttons: [{ payload: 'sku' }] },
    { mediaLink: { value: 'https://cdn.example/b.jpg' }, buttons: [{ urlSuffix: { value: 'winter' } }] },
  ],
};
const zones = new Set(['UTC', 'Asia/Kolkata']);
const mapper = new RowMapper(mapping, template, (tz) => zones.has(tz));
const row = { phone: '+91 98765-43210', tz: 'Asia/Kolkata', name: 'Asha', img: 'https://cdn.example/a.jpg', price: '₹499', sku: 'SKU-1' };

describe('RowMapper', () => {
  it('maps a row to the values the dispatch job carries, the number as digits', () => {
    expect(mapper.map(row)).toEqual({
      ok: true,
      recipient: '919876543210',
      timeZone: 'Asia/Kolkata',
      values: {
        bodyParameters: ['Asha'],
        cards: [
          { mediaLink: 'https://cdn.example/a.jpg', bodyParameters: ['₹499'], buttons: [{ type: 'quick_reply', index: 0, payload: 'SKU-1' }] },
          { mediaLink: 'https://cdn.example/b.jpg', buttons: [{ type: 'url', index: 0, text: 'winter' }] },
        ],
      },
    });
  });

  it('an empty time zone cell leaves the campaign zone', () => {
    expect(mapper.map({ ...row, tz: '' })).toMatchObject({ ok: true, timeZone: null });
  });

  it.each([
    [{ phone: '12' }, null, 'column phone: "12" is not a number with country code (8-15 digits)'],
    [{ phone: '' }, null, 'column phone: empty, not a number with country code (8-15 digits)'],
    [{ tz: 'Mars/Olympus' }, '919876543210', 'column tz: "Mars/Olympus" is not an IANA time zone'],
    [{ img: 'ftp://x/y.jpg' }, '919876543210', 'column img: "ftp://x/y.jpg" is not an http(s) URL'],
    [{ name: ' ' }, '919876543210', 'column name (bodyParameters) is empty'],
    [{ sku: 'x'.repeat(1025) }, '919876543210', 'column sku (payload) is longer than 1024 characters'],
  ])('refuses a row with %j, naming the column', (change, recipient, error) => {
    expect(mapper.map({ ...row, ...change })).toEqual({ ok: false, recipient, error });
  });

  it('names a column the row does not have', () => {
    const { price: _price, ...noPrice } = row;
    expect(mapper.map(noPrice)).toMatchObject({ ok: false, error: 'column price (bodyParameters) is missing from the audience' });
  });
});

describe('mappingProblem', () => {
  it('accepts a mapping that fits the template', () => {
    expect(mappingProblem(mapping, template)).toBeNull();
  });

  it.each([
    [null, 'mapping must be an object'],
    [{ ...mapping, number: '' }, 'mapping.number must name the column holding the numbers'],
    [{ ...mapping, cards: mapping.cards.slice(0, 1) }, 'mapping.cards must have exactly 2 cards for this template (got 1)'],
    [{ ...mapping, bodyParameters: [] }, 'mapping.bodyParameters must have exactly 1 values'],
    [{ ...mapping, cards: [{ ...mapping.cards[0], mediaLink: 7 }, mapping.cards[1]] }, 'mapping.cards[0].mediaLink must be a column name or { "value": "..." }'],
    [{ ...mapping, cards: [{ ...mapping.cards[0], buttons: [{ url: 'x' }] }, mapping.cards[1]] }, 'mapping.cards[0].buttons[0] must be { "payload": ... } or { "urlSuffix": ... }'],
    [{ ...mapping, cards: [{ ...mapping.cards[0], buttons: [{ urlSuffix: 'sku' }] }, mapping.cards[1]] }, 'mapping.cards[0].buttons[0] must be a quick-reply payload'],
  ])('refuses %j', (bad, problem) => {
    expect(mappingProblem(bad, template)).toContain(problem);
  });

  it('lists the columns a mapping reads, fixed values left out', () => {
    expect(mappedColumns(mapping)).toEqual(['phone', 'tz', 'name', 'img', 'price', 'sku']);
  });
});
