import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '@platform/accounts';
import { ConfigModule } from '@platform/config';
import { CallbackQueueNames } from '@platform/contracts';
import { CryptoModule } from '@platform/crypto';
import { DatabaseModule } from '@platform/database';
import { QueueModule } from '@platform/queue';
import { TemplateSyncModule } from '@platform/whatsapp';
import { CLI_ENV } from './cli-env.js';

@Module({})
export class CliModule {
  /** `env` overrides process.env (tests, benches, the local demo's seeding). */
  static forRoot(env: Record<string, string> = {}): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(CLI_ENV, env), DatabaseModule, CryptoModule, QueueModule.forProducers([CallbackQueueNames.callback], { startupCheck: false }), AccountsModule, TemplateSyncModule],
    };
  }
}
