import { SdkError } from './sdk-error';

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
