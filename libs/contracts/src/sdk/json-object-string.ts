import { ValidateBy, ValidationOptions } from 'class-validator';

/** True when `value` is a string holding a JSON object (not an array, not a primitive). */
export function isJsonObjectString(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

export function IsJsonObjectString(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isJsonObjectString', validator: { validate: (value) => isJsonObjectString(value) } }, options);
}
