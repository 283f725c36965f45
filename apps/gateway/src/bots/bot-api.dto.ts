import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional } from '@nestjs/swagger';
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

/** One error or warning of a definition, named by where it is (the validator's `{ journey, node, field, message }`). */
export class DefinitionProblemDto {
  @ApiProperty({ type: String, nullable: true, description: 'Journey slug; null when it concerns the whole document', example: 'welcome' })
  journey: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Node id; null when it concerns the whole journey or document', example: 'ask-name' })
  node: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The field inside the node or document, e.g. `answer.pattern` or `maxRetries`', example: 'maxRetries' })
  field: string | null;

  @ApiProperty({ example: 'no "invalid" edge: after 2 retries without a valid answer the user gets the apology and the journey ends, …' })
  message: string;
}

const WARNINGS: ApiPropertyOptions = {
  type: [DefinitionProblemDto],
  description: 'What runs but probably not as meant (docs/bots.md: a question with no `invalid` edge); never refuses a save or a publish. Always present; empty when there are none.',
};

/** Answer of the builder's check (POST …/builder/validate): nothing is saved, 200 either way. */
export class DefinitionCheckDto {
  @ApiProperty({ description: 'No errors: it can be saved and published' })
  ok: boolean;

  @ApiProperty({ type: [DefinitionProblemDto], description: 'What a save or publish would refuse it for; empty when ok' })
  errors: DefinitionProblemDto[];

  @ApiProperty(WARNINGS)
  warnings: DefinitionProblemDto[];
}

/** Answer of a saved draft. */
export class DraftSavedDto {
  @ApiProperty({ example: 'Draft saved' })
  message: string;

  @ApiProperty({ example: 'success' })
  status: string;

  @ApiProperty({ format: 'date-time' })
  draftUpdatedAt: string;

  @ApiProperty(WARNINGS)
  warnings: DefinitionProblemDto[];
}

/** Answer of a publish (the draft, or a definition saved and published in one call). */
export class VersionPublishedDto {
  @ApiProperty({ example: 'Draft published' })
  message: string;

  @ApiProperty({ example: 'success' })
  status: string;

  @ApiProperty({ description: 'The new version; new conversations start on it', example: 3 })
  version: number;

  @ApiProperty(WARNINGS)
  warnings: DefinitionProblemDto[];
}
