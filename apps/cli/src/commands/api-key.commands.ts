import { ApiKeyService } from '@platform/accounts';
import { ApiKeyRepository } from '@platform/database';
import { CliCommand, requireId, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

export const apiKeyCommands: CliCommand[] = [
  {
    name: 'key create',
    summary: 'Create an API key for a bot (printed once; only its hash is stored)',
    options: { bot: { description: 'Bot id', required: true }, name: { description: 'What the key is for', required: true } },
    async run(app, args, out) {
      const { key, record } = await app.get(ApiKeyService).create(requireId(args, 'bot', '`bot list`'), requireString(args, 'name'));
      out(`api key ${record.id} (${record.name}) created. Copy it now, it is not shown again:`);
      out(key);
    },
  },
  {
    name: 'key list',
    summary: "List a bot's API keys",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      for (const k of await app.get(ApiKeyRepository).listByBot(requireId(args, 'bot', '`bot list`'))) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'live';
        out(`${k.id}  ${k.prefix}…  ${k.name}  created ${k.createdAt.toISOString()}  last used ${k.lastUsedAt?.toISOString() ?? 'never'}  ${state}`);
      }
    },
  },
  {
    name: 'key revoke',
    summary: 'Revoke an API key (every gateway refuses it at once)',
    options: { bot: { description: 'Bot id', required: true }, key: { description: 'Key id (from key list)', required: true } },
    async run(app, args, out) {
      const revoked = await app.get(ApiKeyService).revoke(requireId(args, 'bot', '`bot list`'), requireId(args, 'key', '`key list`'));
      if (!revoked) throw new UsageError('no live key with that id for that bot');
      out(`api key ${revoked.id} revoked`);
    },
  },
];
