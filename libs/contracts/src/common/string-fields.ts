import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsNotEmpty, IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';

/** The rules of a string field besides its presence; each refusal has its own message. */
export interface StringRules {
  /** A pattern the value must match, and the message that explains it. */
  pattern?: { regex: RegExp; message: string };
  /** An absolute http(s) URL; no top-level domain is required, so loopback hosts pass. */
  httpUrl?: boolean;
  /** Most characters accepted. */
  max?: number;
  /** `empty` refuses ''; `blank` refuses '' and whitespace alone. */
  refuse?: 'empty' | 'blank';
}

/** A string the body must carry, e.g. `@RequiredString({ max: 100, refuse: 'empty' })`. */
export function RequiredString(rules: StringRules = {}): PropertyDecorator {
  return stacked(IsDefined({ message: '$property is required' }), ...stringRules(rules));
}

/** A string the body may leave out; when given, it follows `rules`. */
export function OptionalString(rules: StringRules = {}): PropertyDecorator {
  return stacked(IsOptional(), ...stringRules(rules));
}

function stringRules({ pattern, httpUrl, max, refuse }: StringRules): PropertyDecorator[] {
  return [
    ...(pattern ? [Matches(pattern.regex, { message: pattern.message })] : []),
    ...(httpUrl ? [IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: '$property must be an http(s) URL' })] : []),
    ...(max !== undefined ? [MaxLength(max, { message: `$property must be at most ${max} characters` })] : []),
    ...(refuse === 'empty' ? [IsNotEmpty({ message: '$property must not be empty' })] : []),
    ...(refuse === 'blank' ? [Matches(/\S/, { message: '$property must not be empty or blank' })] : []),
    IsString({ message: '$property must be a string' }),
  ];
}

/**
 * Applies `decorators` as if written one above the other in this order: TypeScript applies such a
 * stack bottom first, and the order rules are applied in decides which failed rule words the 400.
 */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}
