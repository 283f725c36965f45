import type { ValidationRule } from '../errors';

/** Deeper nesting than this is refused, so hostile input cannot exhaust the stack. */
export const MAX_JSON_DEPTH = 64;

export interface JsonProblem {
  rule: ValidationRule;
  path: string;
  message: string;
}

/** A non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for `{}`-literals and `Object.create(null)`, also from another realm; false for arrays, Dates, Maps, class instances. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Finds the first value that would not survive `JSON.stringify` unchanged. Object members that are
 * `undefined` are allowed (JSON omits them); everything else that JSON cannot carry is a problem.
 */
export function findJsonProblem(value: unknown, path: string): JsonProblem | null {
  return check(value, path, []);
}

function check(value: unknown, path: string, ancestors: object[]): JsonProblem | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null;
    case 'number':
      return Number.isFinite(value) ? null : problem('nonFiniteNumber', path, 'must be a finite number');
    case 'bigint':
      return problem('bigint', path, 'must not be a BigInt');
    case 'symbol':
      return problem('symbol', path, 'must not be a symbol');
    case 'function':
      return problem('function', path, 'must not be a function');
    case 'undefined':
      return problem('undefined', path, 'must not be undefined');
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.includes(object)) return problem('cycle', path, 'must not refer back to itself (cycle)');
  if (ancestors.length >= MAX_JSON_DEPTH) return problem('depth', path, `must not nest deeper than ${MAX_JSON_DEPTH} levels`);
  ancestors.push(object);
  const found = Array.isArray(object) ? checkArray(object, path, ancestors) : checkObject(object, path, ancestors);
  ancestors.pop();
  return found;
}

function checkArray(array: unknown[], path: string, ancestors: object[]): JsonProblem | null {
  for (let i = 0; i < array.length; i++) {
    const itemPath = `${path}[${i}]`;
    // Holes read as undefined too; JSON would turn both into null.
    if (array[i] === undefined) return problem('undefinedInArray', itemPath, 'must not be undefined (array item)');
    const found = check(array[i], itemPath, ancestors);
    if (found) return found;
  }
  return null;
}

function checkObject(object: object, path: string, ancestors: object[]): JsonProblem | null {
  if (!isPlainObject(object)) return problem('plainObject', path, 'must be a plain object, array or primitive');
  if (Object.getOwnPropertySymbols(object).length > 0) return problem('symbol', path, 'must not have symbol keys');
  for (const key of Object.keys(object)) {
    const member = object[key];
    if (member === undefined) continue;
    const found = check(member, memberPath(path, key), ancestors);
    if (found) return found;
  }
  return null;
}

function memberPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function problem(rule: ValidationRule, path: string, text: string): JsonProblem {
  return { rule, path, message: `${path} ${text}` };
}
