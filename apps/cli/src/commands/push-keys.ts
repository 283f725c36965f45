import { reencryptPushConfigs } from '@platform/database';
import { CliCommand } from '../command.js';

/** Key rotation of stored Firebase service accounts (wire into commands/index.ts: ...pushKeyCommands). */
export const pushKeyCommands: CliCommand[] = [
  {
    name: 'push reencrypt',
    summary: 'Re-encrypt every stored Firebase service account under ENCRYPTION_ACTIVE_KEY_ID (then old keys can be removed)',
    options: {},
    async run(app, _args, out) {
      const r = await reencryptPushConfigs(app);
      out(`push configs re-encrypted under key ${r.activeKeyId}: ${r.reencrypted}${r.changedMeanwhile ? ` (${r.changedMeanwhile} saved again meanwhile, already under it)` : ''}`);
    },
  },
];
