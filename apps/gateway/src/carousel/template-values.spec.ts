import { BadRequestException } from '@nestjs/common';
import type { CarouselParamsDto } from '@platform/contracts';
import { TemplateShape, templateValues } from './template-values.js';

const synced: TemplateShape = {
  bodyParameterCount: 1,
  cards: [1, 2].map(() => ({
    bodyParameterCount: 1,
    buttons: [
      { type: 'QUICK_REPLY', text: 'More like this' },
      { type: 'PHONE_NUMBER', text: 'Call us' },
      { type: 'URL', text: 'Buy', url: 'https://shop.example/{{1}}' },
    ],
  })),
};

const params = (): CarouselParamsDto => ({
  bodyParameters: ['Ana'],
  cards: [1, 2].map((i) => ({
    media: { mediaLink: `https://i/${i}.png` },
    bodyParameters: [`${i}0%`],
    buttons: [{ payload: `more-${i}` }, { urlSuffix: `item/${i}` }],
  })),
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof BadRequestException) return err.message;
    throw err;
  }
  throw new Error('accepted');
}

describe('templateValues', () => {
  it('gives each button value the index of its button in the template card (buttons that take none are skipped)', () => {
    expect(templateValues(params(), synced)).toEqual({
      bodyParameters: ['Ana'],
      cards: [1, 2].map((i) => ({
        mediaLink: `https://i/${i}.png`,
        bodyParameters: [`${i}0%`],
        buttons: [
          { type: 'quick_reply', index: 0, payload: `more-${i}` },
          { type: 'url', index: 2, text: `item/${i}` },
        ],
      })),
    });
  });

  it('names the card and button whose kind does not match the template', () => {
    const p = params();
    p.cards[1].buttons = [{ urlSuffix: 'x' }, { urlSuffix: 'y' }];
    expect(refusal(() => templateValues(p, synced))).toBe("notification.params.cards[1].buttons[0] must be a quick-reply payload (the template's card 2 button 1 is QUICK_REPLY)");
    p.cards[1].buttons = [{ payload: 'x' }, { payload: 'y' }];
    expect(refusal(() => templateValues(p, synced))).toBe("notification.params.cards[1].buttons[1] must be a URL suffix (the template's card 2 button 3 is URL https://shop.example/{{1}})");
  });

  it('refuses a wrong number of buttons or body parameters, naming the field', () => {
    const p = params();
    p.cards[0].buttons = [{ payload: 'x' }];
    expect(refusal(() => templateValues(p, synced))).toBe(
      "notification.params.cards[0].buttons must have exactly 2 entries (the template's card 1 has 2 buttons that take a value: QUICK_REPLY, URL; got 1)",
    );
    const q = params();
    delete q.cards[1].bodyParameters;
    expect(refusal(() => templateValues(q, synced))).toBe("notification.params.cards[1].bodyParameters must have exactly 1 values (the template's card 2 body has 1 placeholders; got 0)");
    const r = params();
    delete r.bodyParameters;
    expect(refusal(() => templateValues(r, synced))).toBe("notification.params.bodyParameters must have exactly 1 values (the template's message body has 1 placeholders; got 0)");
  });

  it('sends the values of a template registered by hand unchecked, each button at its own position', () => {
    const p = params();
    p.cards[0].buttons = [{ urlSuffix: 'a' }];
    delete p.cards[1].buttons;
    expect(templateValues(p, { bodyParameterCount: 0, cards: null })).toEqual({
      bodyParameters: ['Ana'],
      cards: [
        { mediaLink: 'https://i/1.png', bodyParameters: ['10%'], buttons: [{ type: 'url', index: 0, text: 'a' }] },
        { mediaLink: 'https://i/2.png', bodyParameters: ['20%'] },
      ],
    });
  });
});
