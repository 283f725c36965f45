import { Transform } from 'class-transformer';
import { ValidateBy, isURL } from 'class-validator';

/**
 * Decorators for env class fields. Each one parses the string process.env holds into the field's type
 * before validation (a field left unset keeps its initialiser) and words its message with the variable's
 * name, so a ConfigError line says which variable is wrong and what it accepts.
 */

export interface IntBounds {
  min: number;
  max?: number;
}

/** An integer within bounds, e.g. `@IntEnv({ min: 1, max: 1000 })`; `_MS` and `_SECONDS` variables name their unit. */
export function IntEnv(bounds: IntBounds): PropertyDecorator {
  return (target, property) => {
    const name = String(property);
    Transform(({ value }) => parseInteger(value))(target, property);
    ValidateBy({
      name: 'intEnv',
      constraints: [bounds],
      validator: {
        validate: (value: unknown) => Number.isSafeInteger(value) && (value as number) >= bounds.min && (bounds.max === undefined || (value as number) <= bounds.max),
        defaultMessage: (args) => intProblem(name, args?.value, bounds),
      },
    })(target, property);
  };
}

/** A boolean written `true` or `false`; the field holds a real boolean. */
export function BoolEnv(): PropertyDecorator {
  return (target, property) => {
    const name = String(property);
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))(target, property);
    ValidateBy({
      name: 'boolEnv',
      validator: { validate: (value: unknown) => typeof value === 'boolean', defaultMessage: () => `${name} must be true or false` },
    })(target, property);
  };
}

/** An absolute URL (of `protocols` when given, else http, https or ftp); a trailing slash is dropped so paths can be appended. */
export function UrlEnv(options: { protocols?: string[] } = {}): PropertyDecorator {
  return (target, property) => {
    const name = String(property);
    const httpOnly = options.protocols?.length === 2 && options.protocols.includes('http') && options.protocols.includes('https');
    Transform(({ value }) => (typeof value === 'string' ? value.replace(/\/$/, '') : value))(target, property);
    ValidateBy({
      name: 'urlEnv',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isURL(value, { require_tld: false, require_protocol: true, ...(options.protocols && { protocols: options.protocols }) }),
        defaultMessage: () => `${name} must be ${httpOnly ? 'an http(s)' : 'an absolute'} URL`,
      },
    })(target, property);
  };
}

function parseInteger(value: unknown): unknown {
  return typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;
}

function intProblem(name: string, value: unknown, { min, max }: IntBounds): string {
  if (!Number.isSafeInteger(value)) {
    const unit = name.endsWith('_MS') ? 'milliseconds, ' : name.endsWith('_SECONDS') ? 'seconds, ' : '';
    return `${name} must be an integer (${unit}${max === undefined ? `at least ${min}` : `${min}..${max}`})`;
  }
  return (value as number) < min ? `${name} must be at least ${min}` : `${name} must be at most ${max}`;
}
