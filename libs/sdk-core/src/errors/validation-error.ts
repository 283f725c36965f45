import { SdkError } from './sdk-error';

/** Codes of the validation rules; `ValidationError.rule` holds one of them. */
export type ValidationRule =
  | 'required'
  | 'type'
  | 'blank'
  | 'maxLength'
  | 'maxBytes'
  | 'charset'
  | 'plainObject'
  | 'function'
  | 'cycle'
  | 'bigint'
  | 'symbol'
  | 'undefined'
  | 'undefinedInArray'
  | 'nonFiniteNumber'
  | 'depth'
  | 'integer'
  | 'regionHost'
  | 'color'
  | 'hostname'
  | 'url'
  | 'oneOf';

/** A config field or call argument broke a rule. `path` locates the value inside `field` (payload members). */
export class ValidationError extends SdkError {
  override name = 'ValidationError';
  constructor(
    readonly field: string,
    readonly rule: ValidationRule,
    message: string,
    readonly path: string = field,
  ) {
    super(message);
  }
}
