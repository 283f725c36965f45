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
    const constraints = Object.values(e.constraints ?? {});
    // Report the first failed rule of a field: "is required" makes "must be a string" noise.
    if (constraints.length > 0) out.push(constraints[constraints.length - 1].replace(e.property, path));
    if (e.children?.length) out.push(...formatValidationErrors(e.children, path));
  }
  return out;
}

/** How the gateway validates DTOs at the edge: unknown fields refused, one error per bad field. */
export const EDGE_VALIDATION: Readonly<ValidatorOptions> = { whitelist: true, forbidNonWhitelisted: true, stopAtFirstError: true };

/** A plain body checked as the gateway checks it: the DTO it becomes and a message per bad field (none when valid). */
export function validateAtEdge<T extends object>(cls: new () => T, body: unknown): { dto: T; errors: string[] } {
  const dto = plainToInstance(cls, body) as T;
  return { dto, errors: formatValidationErrors(validateSync(dto, EDGE_VALIDATION)) };
}
