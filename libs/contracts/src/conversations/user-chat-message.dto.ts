import { IsDefined, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Body of POST /v1/bots/:botId/sessions/:sessionId/messages: what the user typed, or the quick reply tapped. */
export class UserChatMessageDto {
  @IsDefined({ message: '$property is required' })
  @MaxLength(4096, { message: '$property must be at most 4096 characters' })
  @Matches(/\S/, { message: '$property must not be empty or blank' })
  @IsString({ message: '$property must be a string' })
  text: string;

  /** The tapped quick reply's payload. */
  @IsOptional()
  @MaxLength(256, { message: '$property must be at most 256 characters' })
  @IsString({ message: '$property must be a string' })
  payload?: string;
}
