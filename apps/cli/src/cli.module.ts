import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@platform/auth';
import { PlatformConfigModule } from '@platform/config';
import { CryptoModule } from '@platform/crypto';
import { DatabaseModule } from '@platform/database';
import { QueueModule } from '@platform/queue';

@Module({})
export class CliModule {
  static forRoot(env: Record<string, string> = {}): DynamicModule {
    return {
      module: CliModule,
      imports: [PlatformConfigModule.forRoot(env), DatabaseModule, CryptoModule, QueueModule.forProducers([]), AuthModule],
    };
  }
}
