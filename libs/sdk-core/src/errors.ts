// Names are set as literals because minifiers rename classes.

/** Base class of every error the SDK throws or reports to `onError`. */
export class SdkError extends Error {
  override name = 'SdkError';
}

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

/** `parseBotPayload` got invalid JSON or JSON that is not an object. */
export class InvalidPayloadError extends SdkError {
  override name = 'InvalidPayloadError';
  constructor(
    readonly reason: 'invalidJson' | 'notObject',
    message: string,
  ) {
    super(message);
  }
}

/** The platform answered an HTTP request with a non-2xx status. */
export class HttpError extends SdkError {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

/** The platform answered with something that does not follow the wire protocol. */
export class ProtocolError extends SdkError {
  override name = 'ProtocolError';
}

export type EventDecodeReason =
  | 'binaryFrame'
  | 'notJson'
  | 'notObject'
  | 'missingType'
  | 'missingId'
  | 'badEvent'
  | 'badPlatformCode'
  | 'badCode'
  | 'dataNotString'
  | 'dataNotJson'
  | 'dataNotObject';

/** A stream frame or bot event could not be decoded; reported to `onError`, never thrown into the app. */
export class EventDecodeError extends SdkError {
  override name = 'EventDecodeError';
  constructor(
    readonly reason: EventDecodeReason,
    message: string,
    readonly eventId?: string,
  ) {
    super(message);
  }
}

export type SessionErrorReason = 'notStarted' | 'unauthorized' | 'gaveUp' | 'listenerFailed' | 'restartFailed';

/** The session or its event stream is not usable (or an app listener threw). */
export class SessionError extends SdkError {
  override name = 'SessionError';
  constructor(
    readonly reason: SessionErrorReason,
    message: string,
    readonly closeCode?: number,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}
