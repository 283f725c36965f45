import { IsDefined, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Body of PUT /v1/bots/:botId/members: give an existing user a role on the bot, or change it. */
export class SetMemberRoleDto {
  @IsDefined({ message: '$property is required' })
  @MaxLength(320, { message: '$property must be at most 320 characters' })
  @IsNotEmpty({ message: '$property must not be empty' })
  @IsString({ message: '$property must be a string' })
  email: string;

  @IsDefined({ message: '$property is required' })
  @IsIn(['admin', 'developer', 'viewer'], { message: '$property must be one of admin, developer, viewer' })
  role: 'admin' | 'developer' | 'viewer';
}

export interface MemberView {
  userId: string;
  email: string;
  role: 'admin' | 'developer' | 'viewer';
  since: string;
}
