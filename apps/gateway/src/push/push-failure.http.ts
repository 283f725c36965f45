import { HttpException, HttpStatus } from '@nestjs/common';
import type { PushFailure } from '@platform/contracts';

const STATUS: { readonly [K in PushFailure['kind']]: HttpStatus } = {
  invalid: HttpStatus.BAD_REQUEST,
  not_found: HttpStatus.NOT_FOUND,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
  provider_unreachable: HttpStatus.BAD_GATEWAY,
  failed: HttpStatus.INTERNAL_SERVER_ERROR,
};

/** The HTTP answer to a push service's failure: its status by kind, the push service's message (and details) as the body. */
export function pushFailureHttpException(failure: PushFailure): HttpException {
  const details = failure.kind === 'invalid' && failure.details ? { details: failure.details } : {};
  return new HttpException({ message: failure.message, ...details }, STATUS[failure.kind]);
}
