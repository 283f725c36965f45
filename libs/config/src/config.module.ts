import { DynamicModule, Global, Module } from '@nestjs/common';
import { EnvClass, LoadedEnv, loadEnv, readEnv } from './env-loader.js';

/** Provides each env class an app composes as its own injection token. */
@Global()
@Module({})
export class ConfigModule {
  /** Validates `classes` against process.env with `overrides` over it (tests pass these instead of mutating process.env). */
  static forRoot(classes: readonly EnvClass[], overrides: Record<string, string> = {}): DynamicModule {
    return ConfigModule.forEnv(loadEnv(classes, readEnv(overrides)));
  }

  /** Provides env classes the app already loaded (an app that reads some before building its module). */
  static forEnv(env: LoadedEnv): DynamicModule {
    const providers = env.classes().map((envClass) => ({ provide: envClass, useValue: env.get(envClass) }));
    return { module: ConfigModule, providers, exports: providers.map((p) => p.provide) };
  }
}
