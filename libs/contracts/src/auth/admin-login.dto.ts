import { IsBoolean, IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** Body of POST /v1/auth/login. */
export class AdminLoginDto {
  @IsDefined({ message: '$property is required' })
  @MaxLength(320, { message: '$property must be at most 320 characters' })
  @IsNotEmpty({ message: '$property must not be empty' })
  @IsString({ message: '$property must be a string' })
  email: string;

  @IsDefined({ message: '$property is required' })
  @MaxLength(1024, { message: '$property must be at most 1024 characters' })
  @IsNotEmpty({ message: '$property must not be empty' })
  @IsString({ message: '$property must be a string' })
  password: string;

  /**
   * true: the refresh token is set as an HttpOnly cookie scoped to /v1/auth instead of being in the
   * answer, so page scripts (the console) never hold it.
   */
  @IsOptional()
  @IsBoolean({ message: '$property must be a boolean' })
  refresh_token_in_cookie?: boolean;
}

/** Body of POST /v1/auth/refresh. */
export class AdminRefreshDto {
  /** Absent: the refresh-token cookie a cookie login set is used. */
  @IsOptional()
  @MaxLength(200, { message: '$property must be at most 200 characters' })
  @IsNotEmpty({ message: '$property must not be empty' })
  @IsString({ message: '$property must be a string' })
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
