import { SdkError } from './sdk-error';

export type EventDecodeReason = 'binaryFrame' | 'notJson' | 'notObject' | 'missingType' | 'missingId' | 'badEvent' | 'badPlatformCode' | 'badCode' | 'dataNotString' | 'dataNotJson' | 'dataNotObject';

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
