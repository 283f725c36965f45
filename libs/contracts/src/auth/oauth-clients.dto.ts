import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString } from 'class-validator';
import { RequiredString } from '../common/string-fields.js';

/** Body of POST /v1/bots/:botId/oauth-clients (field names follow RFC 7591). */
export class RegisterOAuthClientDto {
  @RequiredString({ max: 100, refuse: 'empty' })
  name: string;

  /** confidential: a server that keeps a secret; public: a browser or native app (PKCE required). */
  @IsDefined({ message: '$property is required' })
  @IsIn(['confidential', 'public'], { message: '$property must be confidential or public' })
  type: 'confidential' | 'public';

  @IsDefined({ message: '$property is required' })
  @IsString({ each: true, message: '$property must be an array of URI strings' })
  @ArrayMaxSize(10, { message: '$property must list at most 10 URIs' })
  @ArrayMinSize(1, { message: '$property must list at least 1 URI' })
  @IsArray({ message: '$property must be an array of URI strings' })
  redirect_uris: string[];

  @IsOptional()
  @IsIn(['authorization_code', 'refresh_token'], { each: true, message: '$property must contain only authorization_code and refresh_token' })
  @IsArray({ message: '$property must be an array' })
  grant_types?: string[];

  @IsOptional()
  @IsIn(['bot:read', 'bot:write', 'bot:admin'], { each: true, message: '$property must contain only bot:read, bot:write and bot:admin' })
  @IsArray({ message: '$property must be an array' })
  scopes?: string[];
}

export interface OAuthClientView {
  id: string;
  client_id: string;
  name: string;
  type: 'confidential' | 'public';
  redirect_uris: string[];
  grant_types: string[];
  scopes: string[];
  created_at: string;
  revoked_at: string | null;
}

/** Answer of registration: the secret (confidential clients) appears here once and nowhere else. */
export interface RegisteredOAuthClientResponse extends OAuthClientView {
  client_secret?: string;
}
