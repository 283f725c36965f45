import { IsDefined, IsIn } from 'class-validator';
import { RequiredString } from '../common/string-fields.js';

/** Body of PUT /v1/bots/:botId/members: give an existing user a role on the bot, or change it. */
export class SetMemberRoleDto {
  @RequiredString({ max: 320, refuse: 'empty' })
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
