import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { AccountController } from './account.controller.js';
import { AccountService } from './account.service.js';

@Module({ imports: [AuthModule], controllers: [AccountController], providers: [AccountService] })
export class AccountModule {}
