import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

export const VERSION_NOTE_MAX = 500;
export const BOT_SECRET_VALUE_LIMIT = 4096;

/** Body of POST /v1/bots/:botId/definition/publish. */
export class PublishBotDefinitionDto {
  @ApiPropertyOptional({ description: 'What changed, shown in the version list', maxLength: VERSION_NOTE_MAX })
  @IsOptional()
  @MaxLength(VERSION_NOTE_MAX, { message: `$property must be at most ${VERSION_NOTE_MAX} characters` })
  @IsString({ message: '$property must be a string' })
  note?: string;
}

/** Body of POST /v1/bots/:botId/versions: save the draft and publish it in one call (`bot deploy`). */
export class DeployBotVersionDto extends PublishBotDefinitionDto {
  @ApiProperty({ description: 'The bot definition (GET /v1/bot-definition.schema.json)', type: 'object', additionalProperties: true })
  @IsDefined({ message: '$property is required' })
  @IsObject({ message: '$property must be an object' })
  definition: Record<string, unknown>;
}

/** Body of PUT /v1/bots/:botId/secrets/:name. */
export class SetBotSecretDto {
  @ApiProperty({ description: 'The secret; never shown again', maxLength: BOT_SECRET_VALUE_LIMIT })
  @IsDefined({ message: '$property is required' })
  @MaxLength(BOT_SECRET_VALUE_LIMIT, { message: `$property must be at most ${BOT_SECRET_VALUE_LIMIT} characters` })
  @IsString({ message: '$property must be a string' })
  value: string;
}

/** Body of POST /v1/bots/:botId/conversations/:id/handoff. */
export class HandoffDto {
  @ApiPropertyOptional({ description: 'Why an agent takes over (logged)', maxLength: VERSION_NOTE_MAX })
  @IsOptional()
  @MaxLength(VERSION_NOTE_MAX, { message: `$property must be at most ${VERSION_NOTE_MAX} characters` })
  @IsString({ message: '$property must be a string' })
  reason?: string;
}
