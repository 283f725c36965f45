/** Base class of every error the SDK throws or reports to `onError`. */
export class SdkError extends Error {
  override name = 'SdkError';
}
