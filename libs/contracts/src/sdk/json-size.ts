import { ValidateBy, ValidationOptions } from 'class-validator';

/**
 * Largest session-start `payload` and app-event `data`, measured as the UTF-8 bytes of
 * `JSON.stringify(value)`. The SDK checks the same measure before it sends anything.
 */
export const SDK_PAYLOAD_MAX_BYTES = 65_536;

/** UTF-8 bytes of `JSON.stringify(value)`; 0 for values JSON cannot hold. */
export function jsonByteLength(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
}

export function MaxJsonBytes(limit: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'maxJsonBytes', constraints: [limit], validator: { validate: (value) => jsonByteLength(value) <= limit } }, options);
}
