import { SdkError } from './sdk-error';

/** The platform answered with something that does not follow the wire protocol. */
export class ProtocolError extends SdkError {
  override name = 'ProtocolError';
}
