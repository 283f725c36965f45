import { Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { ApiKeysController } from './api-keys.controller.js';

@Module({ imports: [AuthModule], controllers: [ApiKeysController] })
export class ApiKeysModule {}
