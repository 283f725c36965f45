import { runCli } from '../apps/cli/src/run-cli.js';
import { BotRepository } from '@platform/database';
import { oauthPost } from '@platform/testing';
import { useStack } from './e2e-stack.js';

/** Operator commands: the first administrator of a bot, and OAuth clients. */
describe('CLI: admin create / admin role / oauth-client', () => {
  const stack = useStack();
  let botId: string;

  beforeAll(async () => {
    botId = (await stack.gateway.get(BotRepository, { strict: false }).create('cli bot')).id;
  });

  async function cli(...argv: string[]) {
    const lines: string[] = [];
    const code = await runCli(argv, (l) => lines.push(l), stack.env);
    return { code, lines };
  }
  const login = (email: string, password: string) =>
    fetch(`${stack.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });

  it('admin create prints a generated password once; it logs in and administers the bot', async () => {
    const { code, lines } = await cli('admin', 'create', '--bot', botId, '--email', 'Owner@Example.com');
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/owner@example.com .* created with role admin/);
    const password = lines[lines.length - 1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const res = await login('owner@example.com', password);
    expect(res.status).toBe(200);
    const { access_token } = await res.json();
    expect((await fetch(`${stack.url}/v1/bots/${botId}/api-keys`, { headers: { 'x-auth-token': access_token } })).status).toBe(200);
  });

  it('admin create --password-env reads the password and does not print it', async () => {
    process.env.TEST_ADMIN_PASSWORD = 'correct horse battery staple';
    try {
      const { code, lines } = await cli('admin', 'create', '--bot', botId, '--email', 'second@example.com', '--password-env', 'TEST_ADMIN_PASSWORD');
      expect(code).toBe(0);
      expect(lines.join('\n')).not.toContain('correct horse');
      expect((await login('second@example.com', 'correct horse battery staple')).status).toBe(200);
    } finally {
      delete process.env.TEST_ADMIN_PASSWORD;
    }
  });

  it('refuses an unknown bot, an existing user, a short password, an unset variable (exit 2)', async () => {
    expect((await cli('admin', 'create', '--bot', '00000000-0000-4000-8000-000000000000', '--email', 'x@example.com')).code).toBe(2);
    expect((await cli('admin', 'create', '--bot', botId, '--email', 'owner@example.com')).code).toBe(2);
    process.env.TEST_SHORT = 'short';
    try {
      const r = await cli('admin', 'create', '--bot', botId, '--email', 'y@example.com', '--password-env', 'TEST_SHORT');
      expect(r.code).toBe(2);
      expect(r.lines.join('\n')).toMatch(/at least|12/);
    } finally {
      delete process.env.TEST_SHORT;
    }
    expect((await cli('admin', 'create', '--bot', botId, '--email', 'z@example.com', '--password-env', 'NOT_SET_ANYWHERE')).code).toBe(2);
  });

  it('admin role changes what the user may do', async () => {
    const { lines } = await cli('admin', 'create', '--bot', botId, '--email', 'dev@example.com', '--role', 'developer');
    const { access_token } = await (await login('dev@example.com', lines[lines.length - 1])).json();
    const keys = () => fetch(`${stack.url}/v1/bots/${botId}/api-keys`, { headers: { 'x-auth-token': access_token } }).then((r) => r.status);
    expect(await keys()).toBe(403);
    expect((await cli('admin', 'role', '--bot', botId, '--email', 'dev@example.com', '--role', 'admin')).code).toBe(0);
    expect(await keys()).toBe(200);
    expect((await cli('admin', 'role', '--bot', botId, '--email', 'dev@example.com', '--role', 'root')).code).toBe(2);
  });

  it('oauth-client create prints client_id and a secret that authenticates; list and revoke', async () => {
    const { code, lines } = await cli(
      'oauth-client',
      'create',
      '--bot',
      botId,
      '--name',
      'Partner',
      '--type',
      'confidential',
      '--redirect-uris',
      'https://partner.example/cb,http://127.0.0.1:7000/cb',
      '--scopes',
      'bot:admin',
    );
    expect(code).toBe(0);
    const clientId = lines.find((l) => l.startsWith('client_id: '))!.slice('client_id: '.length);
    const secret = lines[lines.length - 1];
    expect(secret).toMatch(/^bcs_/);
    // Authenticated (the bad code is the only problem) vs not authenticated.
    const ok = await oauthPost(stack.url, '/oauth/token', { grant_type: 'authorization_code', code: 'bac_x', redirect_uri: 'https://partner.example/cb' }, { basic: { id: clientId, secret } });
    expect((await ok.json()).error).toBe('invalid_grant');

    const listed = await cli('oauth-client', 'list', '--bot', botId);
    expect(listed.lines.join('\n')).toContain(clientId);
    expect(listed.lines.join('\n')).not.toContain(secret);
    const id = listed.lines.find((l) => l.includes(clientId))!.split(/\s+/)[0];
    expect((await cli('oauth-client', 'revoke', '--bot', botId, '--id', id)).code).toBe(0);
    const after = await oauthPost(stack.url, '/oauth/token', { grant_type: 'authorization_code', code: 'bac_x', redirect_uri: 'https://partner.example/cb' }, { basic: { id: clientId, secret } });
    expect((await after.json()).error).toBe('invalid_client');
    expect((await cli('oauth-client', 'create', '--bot', botId, '--name', 'x', '--type', 'public', '--redirect-uris', 'http://evil.example/cb')).code).toBe(2);
  });
});
