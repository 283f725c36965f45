import { BadRequestException } from '@nestjs/common';
import { CardButtonDto, CarouselDispatchJob, CarouselParamsDto, DispatchButton, TemplateCardSpec, buttonValueKind } from '@platform/contracts';

/** What a trigger must match: a template registered by hand has no `cards`, and its values are sent unchecked. */
export interface TemplateShape {
  bodyParameterCount: number;
  cards: TemplateCardSpec[] | null;
}

type JobValues = Pick<CarouselDispatchJob, 'bodyParameters' | 'cards'>;

/**
 * The trigger's card values as the worker sends them, after checking their counts and kinds against the
 * synced template (Meta refuses a message whose parameters do not fit its template, after the caller was
 * told 200). A 400 names the card and field, and what the template has there.
 */
export function templateValues(params: CarouselParamsDto, template: TemplateShape): JobValues {
  const specs = template.cards;
  if (specs) {
    expectCount('notification.params.bodyParameters', params.bodyParameters, template.bodyParameterCount, "the template's message body has");
  }
  const cards = params.cards.map((card, i) => {
    const spec = specs?.[i];
    if (spec) {
      expectCount(`notification.params.cards[${i}].bodyParameters`, card.bodyParameters, spec.bodyParameterCount, `the template's card ${i + 1} body has`);
    }
    const buttons = spec ? checkedButtons(card.buttons ?? [], spec, i) : uncheckedButtons(card.buttons ?? []);
    return {
      mediaLink: card.media.mediaLink,
      ...(card.bodyParameters?.length ? { bodyParameters: card.bodyParameters } : {}),
      ...(buttons.length ? { buttons } : {}),
    };
  });
  return { ...(params.bodyParameters?.length ? { bodyParameters: params.bodyParameters } : {}), cards };
}

function expectCount(field: string, values: string[] | undefined, expected: number, what: string): void {
  const got = values?.length ?? 0;
  if (got !== expected) {
    throw new BadRequestException(`${field} must have exactly ${expected} values (${what} ${expected} placeholders; got ${got})`);
  }
}

function checkedButtons(given: CardButtonDto[], spec: TemplateCardSpec, card: number): DispatchButton[] {
  const slots = spec.buttons.map((b, index) => ({ button: b, index, kind: buttonValueKind(b) })).filter((s) => s.kind !== null);
  const field = `notification.params.cards[${card}].buttons`;
  if (given.length !== slots.length) {
    const kinds = slots.map((s) => s.button.type).join(', ');
    throw new BadRequestException(
      `${field} must have exactly ${slots.length} entries (the template's card ${card + 1} has ${slots.length} buttons that take a value${kinds ? `: ${kinds}` : ''}; got ${given.length})`,
    );
  }
  return slots.map(({ button, index, kind }, i) => {
    const value = given[i];
    const where = `the template's card ${card + 1} button ${index + 1} is ${button.type}`;
    if (kind === 'quick_reply') {
      if (value.payload === undefined) throw new BadRequestException(`${field}[${i}] must be a quick-reply payload (${where})`);
      return { type: 'quick_reply', index, payload: value.payload };
    }
    if (value.urlSuffix === undefined) throw new BadRequestException(`${field}[${i}] must be a URL suffix (${where} ${button.url})`);
    return { type: 'url', index, text: value.urlSuffix };
  });
}

/** A hand-registered template: each value goes to the button at its own position. */
function uncheckedButtons(given: CardButtonDto[]): DispatchButton[] {
  return given.map((b, index) => (b.payload !== undefined ? { type: 'quick_reply', index, payload: b.payload } : { type: 'url', index, text: b.urlSuffix ?? '' }));
}
