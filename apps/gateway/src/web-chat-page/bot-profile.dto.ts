import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

export const DISPLAY_NAME_MAX = 60;
export const AVATAR_URL_MAX = 2048;

/** An uploaded avatar in a JSON body: the picture's type and its bytes in base64. */
export class AvatarUploadDto {
  @ApiPropertyOptional({ description: 'image/png, image/jpeg, image/gif or image/webp (checked against the bytes)' })
  @IsString({ message: 'avatar.contentType must be a string' })
  contentType: string;

  @ApiPropertyOptional({ description: 'The picture, base64; at most 256 KB decoded' })
  @IsString({ message: 'avatar.data must be a base64 string' })
  data: string;
}

/** Body of PUT /v1/bots/:botId/profile: a field left out stays as it is; null clears it. */
export class BotProfileDto {
  @ApiPropertyOptional({ description: 'The name the chat page shows for the bot (header, beside its messages)', maxLength: DISPLAY_NAME_MAX, nullable: true })
  @IsOptional()
  @MaxLength(DISPLAY_NAME_MAX, { message: `$property must be at most ${DISPLAY_NAME_MAX} characters` })
  @IsString({ message: '$property must be a string or null' })
  displayName?: string | null;

  @ApiPropertyOptional({ description: "An https address of the bot's picture (replaces an uploaded one)", maxLength: AVATAR_URL_MAX, nullable: true })
  @IsOptional()
  @MaxLength(AVATAR_URL_MAX, { message: `$property must be at most ${AVATAR_URL_MAX} characters` })
  @IsString({ message: '$property must be a string or null' })
  avatarUrl?: string | null;

  @ApiPropertyOptional({ description: 'An uploaded picture (replaces an avatarUrl); null removes it', type: AvatarUploadDto, nullable: true })
  @IsOptional()
  @IsObject({ message: '$property must be an object with contentType and data, or null' })
  avatar?: AvatarUploadDto | null;
}
