import 'reflect-metadata';
import { validateAtEdge } from '../common/validation-errors.js';
import { TriggerCarouselDto } from './trigger-carousel.dto.js';
import { isCertainlyValidTrigger } from './trigger-carousel.fast-check.js';
import { triggerBody } from './trigger-carousel.spec-support.js';

const classValidatorAccepts = (body: unknown) => validateAtEdge(TriggerCarouselDto, body).errors.length === 0;

const valid = () =>
  triggerBody({
    cards: [
      { media: { mediaLink: 'https://cdn.example.com/1.jpg' } },
      { media: { mediaLink: 'http://127.0.0.1:8080/2.mp4?x=1' }, bodyParameters: ['a', 'b'], buttons: [{ payload: 'more-2' }, { urlSuffix: 'item/2' }] },
    ],
    bodyParameters: ['Ana'],
  });

/** A tiny seeded PRNG so that a failure reproduces. */
function prng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const POOL: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  0,
  1.5,
  true,
  [],
  {},
  [''],
  ['a', 1],
  'https://a/1.jpg',
  'ftp://a/1.jpg',
  'javascript:alert(1)',
  'https://' + 'a'.repeat(2050),
  '+12345678',
  '1234567',
  '+0123456789',
  'whatsapp',
  'WhatsApp',
  'sms',
  Array(21).fill('p'),
  { mediaLink: 'https://a/b' },
  { payload: 'p' },
  { urlSuffix: 's' },
  { payload: 'p', urlSuffix: 's' },
  { payload: '' },
  { payload: 'x'.repeat(257) },
  [{ payload: 'p' }],
  [{ urlSuffix: 1 }],
  [null],
];

function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (value === null || typeof value !== 'object') return [prefix];
  const children = Object.keys(value).flatMap((k) => paths((value as Record<string, unknown>)[k], [...prefix, Array.isArray(value) ? Number(k) : k]));
  return [prefix, ...children];
}

function mutate(body: Record<string, unknown>, random: () => number): unknown {
  const all = paths(body).filter((p) => p.length > 0);
  const path = all[Math.floor(random() * all.length)];
  const parent = path.slice(0, -1).reduce<any>((o, k) => o[k], body);
  const key = path[path.length - 1];
  const roll = random();
  if (roll < 0.15) delete parent[key];
  else if (roll < 0.25) parent[`extra${Math.floor(random() * 3)}`] = 'x';
  else parent[key] = structuredClone(POOL[Math.floor(random() * POOL.length)]);
  return body;
}

describe('isCertainlyValidTrigger (the fast path) never accepts what class-validator refuses', () => {
  it('accepts valid bodies, as class-validator does', () => {
    const tenCards = valid();
    tenCards.notification.params.cards = Array.from({ length: 10 }, (_, i) => ({ media: { mediaLink: `https://a/${i}.png` } }));
    for (const body of [valid(), tenCards]) {
      expect(classValidatorAccepts(body)).toBe(true);
      expect(isCertainlyValidTrigger(body)).toBe(true);
    }
  });

  it.each([
    ['missing userDetails', (b: any) => delete b.userDetails],
    ['unknown top-level field', (b: any) => (b.extra = 1)],
    ['number without country code', (b: any) => (b.userDetails.number = '98765')],
    ['empty templateId', (b: any) => (b.notification.templateId = '')],
    ['unknown channel', (b: any) => (b.notification.type = 'sms')],
    ['no cards', (b: any) => (b.notification.params.cards = [])],
    ['11 cards', (b: any) => (b.notification.params.cards = Array(11).fill({ media: { mediaLink: 'https://a/b' } }))],
    ['bad URL', (b: any) => (b.notification.params.cards[0].media.mediaLink = 'javascript:alert(1)')],
    ['non-string body parameter', (b: any) => (b.notification.params.cards[1].bodyParameters = [1])],
    ['null body parameters', (b: any) => (b.notification.params.cards[1].bodyParameters = null)],
    ['a button with both payload and urlSuffix', (b: any) => (b.notification.params.cards[1].buttons[0].urlSuffix = 'x')],
    ['an empty button', (b: any) => (b.notification.params.cards[1].buttons[1] = {})],
    ['an empty payload', (b: any) => (b.notification.params.cards[1].buttons[0].payload = '')],
    ['buttons not an array', (b: any) => (b.notification.params.cards[1].buttons = { payload: 'p' })],
    ['non-string message body parameter', (b: any) => (b.notification.params.bodyParameters = [2])],
    ['a card field the platform does not read (class-validator drops it)', (b: any) => (b.notification.params.cards[0].title = 'Summer')],
    ['a config object (postback URL and custom payload)', (b: any) => (b.config = { postbackUrl: 'https://hooks.example.com/pb', customPayload: { a: 1 } })],
    ['__proto__ key', (b: any) => (b.userDetails = JSON.parse('{"number":"+919876543210","__proto__":{"x":1}}'))],
  ])('sends %s to class-validator', (_name, change) => {
    const body = valid();
    change(body);
    expect(isCertainlyValidTrigger(body)).toBe(false);
  });

  it('over 20,000 random mutations of a valid body, fast-path acceptance always implies class-validator acceptance', () => {
    const random = prng(20261123);
    let acceptedByBoth = 0;
    for (let i = 0; i < 20_000; i++) {
      let body: unknown = valid();
      for (let m = 1 + Math.floor(random() * 2); m > 0; m--) body = mutate(body as Record<string, unknown>, random);
      if (isCertainlyValidTrigger(body)) {
        expect({ body, classValidator: classValidatorAccepts(body) }).toEqual({ body, classValidator: true });
        acceptedByBoth++;
      }
    }
    expect(acceptedByBoth).toBeGreaterThan(100); // mutations that keep the body valid do occur: the check above ran
  });
});
