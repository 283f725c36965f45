import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { OptionalString, RequiredString } from '../common/string-fields.js';

/** Body of POST …/inbox/conversations/:id/handback: without `journeySlug` the bot goes on after its handoff node. */
export class InboxHandbackDto {
  @OptionalString({ max: 64, refuse: 'blank' })
  journeySlug?: string;
}

/** Body of PUT …/inbox/conversations/:id/assignee: a member of the bot, or null for nobody. */
export class InboxAssignDto {
  @ValidateIf((_, v) => v !== null)
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: '$property must be a member id or null' })
  @IsString({ message: '$property must be a member id or null' })
  userId: string | null;
}

/** Body of POST …/inbox/conversations/:id/read: read up to this message (the newest shown); without it, up to the newest. */
export class InboxReadDto {
  @IsOptional()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: '$property must be the id of a message of the conversation' })
  @IsString({ message: '$property must be the id of a message of the conversation' })
  messageId?: string;
}

/** Body of POST …/inbox/conversations/:id/notes: an internal note, never sent to the user. */
export class InboxNoteDto {
  @RequiredString({ max: 4000, refuse: 'blank' })
  text: string;
}

/** Body of POST and PUT …/inbox/canned-responses. */
export class CannedResponseDto {
  @RequiredString({ max: 100, refuse: 'blank' })
  title: string;

  @RequiredString({ max: 4096, refuse: 'blank' })
  text: string;

  @IsOptional()
  @ArrayMaxSize(3, { message: '$property must contain at most 3 quick replies' })
  @IsArray({ message: '$property must be an array of titles' })
  @MaxLength(20, { each: true, message: 'each of $property must be at most 20 characters' })
  @Matches(/\S/, { each: true, message: 'each of $property must not be empty or blank' })
  @IsString({ each: true, message: 'each of $property must be a string' })
  quickReplies?: string[];
}
