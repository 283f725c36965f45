import { BadRequestException } from '@nestjs/common';
import { CardButtonDto, CarouselDispatchJob, CarouselParamsDto, DispatchButton, TemplateCardSpec, buttonValueKind } from '@platform/contracts';

/** What a trigger must match: a template registered by hand has no `cards`, and its values are sent unchecked. */
export interface TemplateShape {
  bodyParameterCount: number;
  cards: TemplateCardSpec[] | null;
}

type JobValues = Pick<CarouselDispatchJob, 'bodyParameters' | 'cards'>;
type JobCard = CarouselDispatchJob['cards'][number];
const NO_BUTTONS: readonly CardButtonDto[] = [];

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
    const given = card.buttons ?? NO_BUTTONS;
    const buttons = spec ? checkedButtons(given, spec, i) : uncheckedButtons(given);
    // Fields set one by one rather than spread: every trigger builds these (the gateway's hot path).
    const values: JobCard = { mediaLink: card.media.mediaLink };
    if (card.bodyParameters?.length) values.bodyParameters = card.bodyParameters;
    if (buttons.length) values.buttons = buttons;
    return values;
  });
  return params.bodyParameters?.length ? { bodyParameters: params.bodyParameters, cards } : { cards };
}

function expectCount(field: string, values: string[] | undefined, expected: number, what: string): void {
  const got = values?.length ?? 0;
  if (got !== expected) {
    throw new BadRequestException(`${field} must have exactly ${expected} values (${what} ${expected} placeholders; got ${got})`);
  }
}

function checkedButtons(given: readonly CardButtonDto[], spec: TemplateCardSpec, card: number): DispatchButton[] {
  const slots = valuedSlots(spec);
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

interface ValuedSlot {
  button: TemplateCardSpec['buttons'][number];
  index: number;
  kind: NonNullable<ReturnType<typeof buttonValueKind>>;
}

/** The card's buttons that take a value, worked out once per card spec held by the catalog, not per trigger. */
const slotsBySpec = new WeakMap<TemplateCardSpec, ValuedSlot[]>();

function valuedSlots(spec: TemplateCardSpec): ValuedSlot[] {
  let slots = slotsBySpec.get(spec);
  if (!slots) {
    slots = spec.buttons.flatMap((button, index) => {
      const kind = buttonValueKind(button);
      return kind === null ? [] : [{ button, index, kind }];
    });
    slotsBySpec.set(spec, slots);
  }
  return slots;
}

/** A hand-registered template: each value goes to the button at its own position. */
function uncheckedButtons(given: readonly CardButtonDto[]): DispatchButton[] {
  return given.map((b, index) => (b.payload !== undefined ? { type: 'quick_reply', index, payload: b.payload } : { type: 'url', index, text: b.urlSuffix ?? '' }));
}
