import { toText } from './json-values.js';

/** The functions an expression may call, with how many arguments each takes. */
export const EXPRESSION_FUNCTIONS = {
  len: [1, 1],
  lower: [1, 1],
  upper: [1, 1],
  trim: [1, 1],
  contains: [2, 2],
  startsWith: [2, 2],
  endsWith: [2, 2],
  number: [1, 1],
  string: [1, 1],
  isEmpty: [1, 1],
  round: [1, 2],
} as const satisfies Record<string, readonly [number, number]>;

export type ExpressionFunctionName = keyof typeof EXPRESSION_FUNCTIONS;

export function isExpressionFunction(name: string): name is ExpressionFunctionName {
  return Object.hasOwn(EXPRESSION_FUNCTIONS, name);
}

/** What each function returns, for the validator's type checks. */
export const EXPRESSION_FUNCTION_TYPES: Record<ExpressionFunctionName, 'string' | 'number' | 'boolean' | null> = {
  len: 'number',
  lower: 'string',
  upper: 'string',
  trim: 'string',
  contains: 'boolean',
  startsWith: 'boolean',
  endsWith: 'boolean',
  number: null, // a number, or null when the value is not one
  string: 'string',
  isEmpty: 'boolean',
  round: null,
};

/** Calls a whitelisted function on evaluated arguments. Total: a value it cannot handle gives a neutral answer. */
export function callExpressionFunction(name: ExpressionFunctionName, args: unknown[]): unknown {
  const [a, b] = args;
  switch (name) {
    case 'len':
      return typeof a === 'string' || Array.isArray(a) ? a.length : a !== null && typeof a === 'object' ? Object.keys(a).length : 0;
    case 'lower':
      return toText(a).toLowerCase();
    case 'upper':
      return toText(a).toUpperCase();
    case 'trim':
      return toText(a).trim();
    case 'contains':
      if (Array.isArray(a)) return a.some((item) => item === b);
      return typeof a === 'string' ? a.includes(toText(b)) : false;
    case 'startsWith':
      return typeof a === 'string' ? a.startsWith(toText(b)) : false;
    case 'endsWith':
      return typeof a === 'string' ? a.endsWith(toText(b)) : false;
    case 'number':
      return toNumber(a);
    case 'string':
      return toText(a);
    case 'isEmpty':
      if (a === null || a === undefined) return true;
      if (typeof a === 'string') return a.trim() === '';
      if (Array.isArray(a)) return a.length === 0;
      return typeof a === 'object' ? Object.keys(a).length === 0 : false;
    case 'round': {
      if (typeof a !== 'number') return null;
      const digits = typeof b === 'number' && Number.isInteger(b) ? Math.min(Math.max(b, 0), 10) : 0;
      const factor = 10 ** digits;
      const rounded = Math.round(a * factor) / factor;
      return Number.isFinite(rounded) ? rounded : null;
    }
  }
}

/** A number from a number, a numeric string (trimmed) or a boolean; null otherwise. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value.trim());
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}
