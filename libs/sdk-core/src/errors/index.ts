// The errors the SDK throws or reports to `onError`, one class a file; each sets its name as a literal
// because minifiers rename classes.
export { SdkError } from './sdk-error';
export { ValidationError } from './validation-error';
export { InvalidPayloadError } from './invalid-payload-error';
export { HttpError } from './http-error';
export { ProtocolError } from './protocol-error';
export { EventDecodeError } from './event-decode-error';
export { SessionError } from './session-error';
export type { ValidationRule } from './validation-error';
export type { EventDecodeReason } from './event-decode-error';
export type { SessionErrorReason } from './session-error';
