import { IsDefined, IsIn, IsOptional, Matches } from 'class-validator';
import { TimeRangePageQueryDto } from '../common/paging.dto.js';
import { OptionalString, RequiredString } from '../common/string-fields.js';

/** Query of GET /v1/bots/:botId/audit. */
export class AuditQueryDto extends TimeRangePageQueryDto {
  /** Prefix of the action name, e.g. `api-keys` or `whatsapp.senders.delete`. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,100}$/, { message: '$property must be an action name or its beginning (letters, digits, . _ -)' })
  action?: string;

  /** The actor's e-mail. */
  @OptionalString({ max: 320, refuse: 'blank' })
  actor?: string;
}

/** Body of POST /v1/me/password. */
export class ChangePasswordDto {
  @RequiredString({ max: 1024, refuse: 'empty' })
  current_password: string;

  @RequiredString({ max: 1024, refuse: 'empty' })
  new_password: string;
}

/** Body of POST /v1/me/two-factor/confirm and DELETE /v1/me/two-factor. */
export class TwoFactorCodeDto {
  @RequiredString({ max: 64, refuse: 'blank' })
  code: string;
}

/** Body of DELETE /v1/me/two-factor: turning it off takes the password and a code. */
export class DisableTwoFactorDto extends TwoFactorCodeDto {
  @RequiredString({ max: 1024, refuse: 'empty' })
  password: string;
}

/** Body of POST /v1/bots/:botId/invitations. */
export class CreateInvitationDto {
  @RequiredString({ max: 320, refuse: 'blank' })
  email: string;

  @IsDefined({ message: '$property is required' })
  @IsIn(['admin', 'developer', 'viewer'], { message: '$property must be one of admin, developer, viewer' })
  role: 'admin' | 'developer' | 'viewer';
}

/** Body of POST /v1/invitations/lookup. */
export class InvitationTokenDto {
  @RequiredString({ max: 200, refuse: 'blank', pattern: { regex: /^biv_[A-Za-z0-9_-]+$/, message: '$property must be an invitation token (biv_…)' } })
  token: string;
}

/** Body of POST /v1/invitations/accept. */
export class AcceptInvitationDto extends InvitationTokenDto {
  @RequiredString({ max: 1024, refuse: 'empty' })
  password: string;

  @IsOptional()
  @IsIn([true, false], { message: '$property must be a boolean' })
  refresh_token_in_cookie?: boolean;
}
