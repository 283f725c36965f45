import { plainToInstance } from 'class-transformer';
import { ValidationError, ValidatorOptions, validateSync } from 'class-validator';

/**
 * Flattens class-validator's error tree into messages that name the full path of the field,
 * e.g. "notification.params.cards[2].media.mediaLink must be an http(s) URL".
 */
export function formatValidationErrors(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = /^\d+$/.test(e.property) ? `${parent}[${e.property}]` : parent ? `${parent}.${e.property}` : e.property;
    const reported = reportedRule(e.constraints ?? {});
    if (reported !== undefined) out.push(reported.replace(e.property, path));
    if (e.children?.length) out.push(...formatValidationErrors(e.children, path));
  }
  return out;
}

/** Rules about what a value is, before any about its size or form: a number where a string belongs is "must be a string", not "must be at most 1000 characters". */
const TYPE_RULES = ['isDefined', 'isArray', 'isObject', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isEnum', 'isIn'];

/** The one failed rule a field's message reports: "is required" or what the value should be, else the first rule that ran. */
function reportedRule(constraints: Record<string, string>): string | undefined {
  for (const rule of TYPE_RULES) if (constraints[rule] !== undefined) return constraints[rule];
  return Object.values(constraints)[0];
}

/**
 * How the gateway validates DTOs at the edge: unknown fields refused, one error per bad field (formatValidationErrors
 * picks it). Every rule of a bad field runs, so that the pick does not depend on the order the rules are written in.
 */
export const EDGE_VALIDATION: Readonly<ValidatorOptions> = { whitelist: true, forbidNonWhitelisted: true };

/** A plain body checked as the gateway checks it: the DTO it becomes and a message per bad field (none when valid). */
export function validateAtEdge<T extends object>(cls: new () => T, body: unknown): { dto: T; errors: string[] } {
  const dto = plainToInstance(cls, body) as T;
  return { dto, errors: formatValidationErrors(validateSync(dto, EDGE_VALIDATION)) };
}
