import { Global, Module } from '@nestjs/common';
import { CryptoEnv } from '@platform/config';
import { SecretBox } from './secret-box.js';

@Global()
@Module({
  providers: [{ provide: SecretBox, inject: [CryptoEnv], useFactory: (env: CryptoEnv) => new SecretBox(env.ENCRYPTION_KEYS, env.ENCRYPTION_ACTIVE_KEY_ID) }],
  exports: [SecretBox],
})
export class CryptoModule {}
