import { DynamicModule, Global, Module } from '@nestjs/common';
import { PlatformEnv, loadPlatformEnv } from './platform-config.js';

/** Provides the validated PlatformEnv. Pass `overrides` in tests instead of mutating process.env. */
@Global()
@Module({})
export class PlatformConfigModule {
  static forRoot(overrides: Partial<Record<keyof PlatformEnv, string>> = {}): DynamicModule {
    const env = loadPlatformEnv({ ...process.env, ...overrides });
    return { module: PlatformConfigModule, providers: [{ provide: PlatformEnv, useValue: env }], exports: [PlatformEnv] };
  }
}
