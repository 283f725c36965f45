import { Global, Module } from '@nestjs/common';
import { PlatformEnv } from '@platform/config';
import { SecretBox } from './secret-box.js';

@Global()
@Module({
  providers: [{ provide: SecretBox, inject: [PlatformEnv], useFactory: (env: PlatformEnv) => new SecretBox(env.ENCRYPTION_KEYS, env.ENCRYPTION_ACTIVE_KEY_ID) }],
  exports: [SecretBox],
})
export class CryptoModule {}
