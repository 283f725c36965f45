/** RFC 6749 §5.2 error codes (plus RFC 7009's) this server answers. */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'unsupported_token_type';

/** An OAuth protocol error, answered as `{error, error_description}` by the OAuth routes' exception filter. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** The client tried HTTP Basic: a 401 must carry WWW-Authenticate (RFC 6749 §5.2). */
    readonly basicAttempted = false,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}
