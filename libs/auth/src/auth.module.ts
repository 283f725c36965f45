import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-keys/api-key.guard.js';
import { ApiKeyService } from './api-keys/api-key.service.js';

@Module({ providers: [ApiKeyService, ApiKeyGuard], exports: [ApiKeyService, ApiKeyGuard] })
export class AuthModule {}
