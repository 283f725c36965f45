import { IsBoolean, IsOptional } from 'class-validator';
import { OptionalString, RequiredString } from '../common/string-fields.js';

/** Body of POST /v1/auth/login. */
export class AdminLoginDto {
  @RequiredString({ max: 320, refuse: 'empty' })
  email: string;

  @RequiredString({ max: 1024, refuse: 'empty' })
  password: string;

  /**
   * true: the refresh token is set as an HttpOnly cookie scoped to /v1/auth instead of being in the
   * answer, so page scripts (the console) never hold it.
   */
  @IsOptional()
  @IsBoolean({ message: '$property must be a boolean' })
  refresh_token_in_cookie?: boolean;

  /** With two-factor sign-in on: the authenticator's 6-digit code, or a recovery code. */
  @OptionalString({ max: 64, refuse: 'empty' })
  totp_code?: string;
}

/** Body of POST /v1/auth/refresh. */
export class AdminRefreshDto {
  /** Absent: the refresh-token cookie a cookie login set is used. */
  @OptionalString({ max: 200, refuse: 'empty' })
  refresh_token?: string;
}

/** Answer of login and refresh (the shape of an OAuth token answer). */
export interface AdminTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** Absent when the refresh token was set as a cookie. */
  refresh_token?: string;
  scope: string;
}
