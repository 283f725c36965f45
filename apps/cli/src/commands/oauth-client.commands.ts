import { OAuthClientInputError, OAuthClientService } from '@platform/accounts';
import { isUuid } from '@platform/contracts';
import { BotRepository } from '@platform/database';
import { CliCommand, CommandArgs, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

function list(args: CommandArgs, name: string): string[] | undefined {
  const value = args[name];
  return typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
}

export const oauthClientCommands: CliCommand[] = [
  {
    name: 'oauth-client create',
    summary: "Register an OAuth client of a bot; a confidential client's secret is printed once",
    options: {
      bot: { description: 'Bot id', required: true },
      name: { description: 'Name shown on the consent page', required: true },
      type: { description: 'confidential (a server that keeps a secret) or public (browser/native app, PKCE required)', required: true },
      'redirect-uris': { description: 'Comma-separated redirect URIs, matched exactly', required: true },
      scopes: { description: 'Comma-separated scopes the client may ask for (default bot:read,bot:write,bot:admin)' },
      'grant-types': { description: 'Comma-separated: authorization_code[,refresh_token] (default both)' },
    },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      if (!isUuid(botId) || !(await app.get(BotRepository).findById(botId))) throw new UsageError(`no bot ${botId}`);
      const type = requireString(args, 'type');
      if (type !== 'confidential' && type !== 'public') throw new UsageError('--type must be confidential or public');
      try {
        const { client, clientSecret } = await app.get(OAuthClientService).register(botId, {
          name: requireString(args, 'name'),
          type,
          redirectUris: list(args, 'redirect-uris') ?? [],
          scopes: list(args, 'scopes'),
          grantTypes: list(args, 'grant-types'),
        });
        out(`oauth client ${client.id} (${client.name}, ${client.type}) registered for bot ${botId}`);
        out(`client_id: ${client.clientId}`);
        if (clientSecret) {
          out('client_secret (shown once, store it now):');
          out(clientSecret);
        }
      } catch (err) {
        if (err instanceof OAuthClientInputError) throw new UsageError(err.message);
        throw err;
      }
    },
  },
  {
    name: 'oauth-client list',
    summary: "List a bot's OAuth clients",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      for (const c of await app.get(OAuthClientService).list(requireString(args, 'bot'))) {
        const state = c.revokedAt ? `revoked ${c.revokedAt.toISOString()}` : 'live';
        out(`${c.id}  ${c.clientId}  ${c.type}  ${c.name}  ${c.redirectUris.join(',')}  ${c.scopes.join(',')}  ${state}`);
      }
    },
  },
  {
    name: 'oauth-client revoke',
    summary: 'Revoke an OAuth client and every token issued to it',
    options: { bot: { description: 'Bot id', required: true }, id: { description: 'Client id (the uuid from oauth-client list)', required: true } },
    async run(app, args, out) {
      const id = requireString(args, 'id');
      const revoked = isUuid(id) ? await app.get(OAuthClientService).revoke(requireString(args, 'bot'), id) : null;
      if (!revoked) throw new UsageError('no live OAuth client with that id for that bot');
      out(`oauth client ${revoked.id} revoked`);
    },
  },
];
