import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { AdminAuthController } from './admin-auth.controller.js';

@Module({ imports: [AuthModule], controllers: [AdminAuthController] })
export class AdminAuthModule {}
