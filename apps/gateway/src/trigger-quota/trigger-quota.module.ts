import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { TriggerQuotaController } from './trigger-quota.controller.js';

@Module({ imports: [AuthModule], controllers: [TriggerQuotaController] })
export class TriggerQuotaModule {}
