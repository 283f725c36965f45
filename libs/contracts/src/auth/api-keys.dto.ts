import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Body of POST /v1/bots/:botId/api-keys. */
export class CreateApiKeyDto {
  @IsDefined({ message: '$property is required' })
  @MaxLength(100, { message: '$property must be at most 100 characters' })
  @IsNotEmpty({ message: '$property must not be empty' })
  @IsString({ message: '$property must be a string' })
  name: string;
}

/** An API key as listed: never the key or its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Answer of key creation: the key itself appears here once and nowhere else. */
export interface CreatedApiKeyResponse extends ApiKeyView {
  key: string;
}
