import { SdkError } from './sdk-error';

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
