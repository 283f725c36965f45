import { BadRequestException } from '@nestjs/common';
import { CampaignMapping, CardButtonDto, CarouselParamsDto, MappedValue } from '@platform/contracts';
import { TemplateShape, templateValues } from '../carousel/template-values.js';

const PHONE = /^\+?[1-9][0-9]{7,14}$/;
const MAX_VALUE_LENGTH = 1024;

/** The template values of one recipient, as the dispatch job carries them. */
export type RecipientValues = ReturnType<typeof templateValues>;

/** A mapped row: what is sent to whom, or why the row cannot be sent. */
export type MappedRow = { ok: true; recipient: string; timeZone: string | null; values: RecipientValues } | { ok: false; recipient: string | null; error: string };

/**
 * Turns audience rows (column → value) into recipients with the campaign's mapping, checked against
 * the synced template as a trigger is (counts and kinds of body parameters and button values), and
 * media links as URLs. A row's error names the column and what is wrong, for the preview.
 */
export class RowMapper {
  constructor(
    private readonly mapping: CampaignMapping,
    private readonly template: TemplateShape,
    private readonly knownTimeZone: (tz: string) => boolean,
  ) {}

  map(row: Record<string, unknown>): MappedRow {
    const rawNumber = cell(row, this.mapping.number);
    const number = rawNumber.replace(/[\s()-]/g, '');
    if (!PHONE.test(number)) {
      return { ok: false, recipient: null, error: `column ${this.mapping.number}: ${rawNumber ? `"${rawNumber.slice(0, 40)}" is not` : 'empty, not'} a number with country code (8-15 digits)` };
    }
    const recipient = number.replace(/^\+/, '');
    const fail = (error: string): MappedRow => ({ ok: false, recipient, error });
    let timeZone: string | null = null;
    if (this.mapping.timeZone) {
      const tz = cell(row, this.mapping.timeZone).trim();
      if (tz && !this.knownTimeZone(tz)) return fail(`column ${this.mapping.timeZone}: "${tz.slice(0, 60)}" is not an IANA time zone`);
      timeZone = tz || null;
    }
    try {
      const params: CarouselParamsDto = {
        ...(this.mapping.bodyParameters?.length ? { bodyParameters: this.mapping.bodyParameters.map((v) => value(row, v, 'bodyParameters')) } : {}),
        cards: this.mapping.cards.map((card) => {
          const mediaLink = value(row, card.mediaLink, 'mediaLink');
          if (!isHttpUrl(mediaLink)) throw new BadRequestException(`${describe(card.mediaLink)}: "${mediaLink.slice(0, 80)}" is not an http(s) URL`);
          return {
            media: { mediaLink },
            ...(card.bodyParameters?.length ? { bodyParameters: card.bodyParameters.map((v) => value(row, v, 'bodyParameters')) } : {}),
            ...(card.buttons?.length
              ? { buttons: card.buttons.map((b): CardButtonDto => ('payload' in b ? { payload: value(row, b.payload, 'payload') } : { urlSuffix: value(row, b.urlSuffix, 'urlSuffix') })) }
              : {}),
          };
        }) as CarouselParamsDto['cards'],
      };
      return { ok: true, recipient, timeZone, values: templateValues(params, this.template) };
    } catch (err) {
      if (err instanceof BadRequestException) return fail(err.message.replace(/notification\.params\./g, 'mapping.'));
      throw err;
    }
  }
}

/**
 * Why a mapping cannot work with the template (null: it can): the columns it names are not checked
 * here (an audience brings them), but its shape and counts are, with placeholder values.
 */
export function mappingProblem(mapping: unknown, template: TemplateShape & { cardCount: number }): string | null {
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) return 'mapping must be an object';
  const m = mapping as Partial<CampaignMapping>;
  if (typeof m.number !== 'string' || !m.number) return 'mapping.number must name the column holding the numbers';
  if (m.timeZone !== undefined && (typeof m.timeZone !== 'string' || !m.timeZone)) return 'mapping.timeZone must name a column';
  if (!Array.isArray(m.cards)) return `mapping.cards must be an array of ${template.cardCount} cards`;
  if (m.cards.length !== template.cardCount) return `mapping.cards must have exactly ${template.cardCount} cards for this template (got ${m.cards.length})`;
  const bad = (path: string, v: unknown) => (isMappedValue(v) ? null : `${path} must be a column name or { "value": "..." }`);
  const list = (path: string, v: unknown): string | null => {
    if (v === undefined) return null;
    if (!Array.isArray(v)) return `${path} must be an array`;
    for (const [i, x] of v.entries()) {
      const p = bad(`${path}[${i}]`, x);
      if (p) return p;
    }
    return null;
  };
  const problems: Array<string | null> = [list('mapping.bodyParameters', m.bodyParameters)];
  m.cards.forEach((card, i) => {
    if (typeof card !== 'object' || card === null) return problems.push(`mapping.cards[${i}] must be an object`);
    problems.push(bad(`mapping.cards[${i}].mediaLink`, card.mediaLink), list(`mapping.cards[${i}].bodyParameters`, card.bodyParameters));
    if (card.buttons !== undefined && !Array.isArray(card.buttons)) return problems.push(`mapping.cards[${i}].buttons must be an array`);
    (card.buttons ?? []).forEach((b, j) => {
      const v = typeof b === 'object' && b !== null ? ('payload' in b ? b.payload : 'urlSuffix' in b ? b.urlSuffix : undefined) : undefined;
      problems.push(v === undefined ? `mapping.cards[${i}].buttons[${j}] must be { "payload": ... } or { "urlSuffix": ... }` : bad(`mapping.cards[${i}].buttons[${j}]`, v));
    });
    return undefined;
  });
  const first = problems.find((p) => p);
  if (first) return first;
  // Counts and button kinds against the template, with every value a placeholder.
  const shape: CampaignMapping = { ...(m as CampaignMapping), timeZone: undefined };
  const placeholderRow = Object.fromEntries(mappedColumns(shape).map((col) => [col, 'https://example.com/x']));
  const mapped = new RowMapper(shape, template, () => true).map({ ...placeholderRow, [shape.number]: '+10000000000' });
  return mapped.ok ? null : mapped.error;
}

function isMappedValue(v: unknown): v is MappedValue {
  return (typeof v === 'string' && v.length > 0) || (typeof v === 'object' && v !== null && typeof (v as { value?: unknown }).value === 'string');
}

function describe(v: MappedValue): string {
  return typeof v === 'string' ? `column ${v}` : 'a fixed value';
}

function cell(row: Record<string, unknown>, column: string): string {
  const v = row[column];
  return v === undefined || v === null ? '' : String(v).trim();
}

function value(row: Record<string, unknown>, v: MappedValue, what: string): string {
  if (typeof v !== 'string') return v.value;
  if (!(v in row)) throw new BadRequestException(`column ${v} (${what}) is missing from the audience`);
  const s = cell(row, v);
  if (!s) throw new BadRequestException(`column ${v} (${what}) is empty`);
  if (s.length > MAX_VALUE_LENGTH) throw new BadRequestException(`column ${v} (${what}) is longer than ${MAX_VALUE_LENGTH} characters`);
  return s;
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The columns a mapping reads (fixed values excluded). */
export function mappedColumns(m: CampaignMapping): string[] {
  const cols = new Set<string>([m.number, ...(m.timeZone ? [m.timeZone] : [])]);
  const add = (v: unknown) => typeof v === 'string' && cols.add(v);
  m.bodyParameters?.forEach(add);
  for (const card of m.cards) {
    add(card.mediaLink);
    card.bodyParameters?.forEach(add);
    card.buttons?.forEach((b) => add('payload' in b ? b.payload : b.urlSuffix));
  }
  return [...cols];
}
