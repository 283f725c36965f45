import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuthModule } from '@platform/auth';
import { AccountSecurityController } from './account-security.controller.js';
import { AuditController } from './audit.controller.js';
import { AuditInterceptor } from './audit.interceptor.js';
import { AuditService } from './audit.service.js';
import { InvitationAcceptController, InvitationsController } from './invitations.controller.js';
import { InvitationService } from './invitation.service.js';

/** Administration that holds up in daily use: the audit log (for every administrator route), the account's password and two-factor sign-in, invitations by link. */
@Module({
  imports: [AuthModule],
  controllers: [AuditController, AccountSecurityController, InvitationsController, InvitationAcceptController],
  providers: [AuditService, InvitationService, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }],
  exports: [AuditService],
})
export class AdministrationModule {}
