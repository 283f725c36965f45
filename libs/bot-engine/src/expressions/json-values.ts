/** Helpers over the JSON values variables hold: own properties only, never a prototype. */

/** `value[key]` when it is an own property of a plain object or an index of an array, else null. */
export function ownMember(value: unknown, key: string | number): unknown {
  if (Array.isArray(value)) {
    const index = typeof key === 'number' ? key : /^(0|[1-9]\d{0,8})$/.test(key) ? Number(key) : -1;
    return Number.isInteger(index) && index >= 0 && index < value.length ? (value[index] ?? null) : null;
  }
  if (value !== null && typeof value === 'object') {
    const name = String(key);
    return Object.hasOwn(value, name) ? ((value as Record<string, unknown>)[name] ?? null) : null;
  }
  return null;
}

/** How a value reads as text: '' for nothing, JSON for objects and arrays, String() for the rest. */
export function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** The variable type a JSON value has (`null` for null and what JSON cannot hold). */
export function jsonTypeOf(value: unknown): JsonType {
  if (Array.isArray(value)) return 'array';
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'object') return 'object';
  return 'null';
}

/** A deep copy through JSON: what the sandbox and the stored state see. */
export function jsonCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
