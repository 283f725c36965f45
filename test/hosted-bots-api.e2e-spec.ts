import { randomUUID } from 'node:crypto';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../apps/cli/src/run-cli.js';
import { BotSecretRepository, ConversationRepository, PrismaService } from '@platform/database';
import { useStack } from './e2e-stack.js';
import { askingBot, brokenBot, greetingBot, turnJobs } from './hosted-bots-support.js';
import { SdkBot, seedSdkBot } from './sdk-support.js';

type Json = Record<string, unknown>;

/**
 * The hosted-bot API over HTTP against real Postgres and Redis: the schema, drafts and their
 * validation errors, publishing, versions, rollback and unpublish, secrets that are never shown, a
 * conversation's trace and state, handoff and handback; and the CLI's deploy, versions and rollback.
 */
describe('hosted bots: the API and the CLI', () => {
  const stack = useStack();
  let bot: SdkBot;
  let other: SdkBot;
  let db: PrismaService;
  const dir = mkdtempSync(join(tmpdir(), 'hosted-bots-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    bot = await seedSdkBot(stack.gateway);
    other = await seedSdkBot(stack.gateway);
    db = stack.gateway.get(PrismaService, { strict: false });
  });

  async function call(method: string, path: string, body?: unknown, as: SdkBot | null = bot): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = as ? { authorization: `Bearer ${as.apiKey}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${stack.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  }
  const api = (method: string, path: string, body?: unknown, as: SdkBot | null = bot) => call(method, `/v1/bots/${(as ?? bot).botId}${path}`, body, as);

  it('publishes the JSON Schema without a key', async () => {
    const res = await call('GET', '/v1/bot-definition.schema.json', undefined, null);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'object' });
  });

  it("answers 401 without a key and for another bot's key on every route", async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['PUT', '/definition', greetingBot()],
      ['GET', '/definition'],
      ['POST', '/definition/publish', {}],
      ['DELETE', '/definition/published'],
      ['POST', '/versions', { definition: greetingBot() }],
      ['GET', '/versions'],
      ['GET', '/versions/1'],
      ['POST', '/versions/1/rollback'],
      ['PUT', '/secrets/TOKEN', { value: 'x' }],
      ['GET', '/secrets'],
      ['DELETE', '/secrets/TOKEN'],
      ['GET', `/conversations/${randomUUID()}/trace`],
      ['GET', `/conversations/${randomUUID()}/bot-state`],
      ['POST', `/conversations/${randomUUID()}/handoff`, {}],
      ['POST', `/conversations/${randomUUID()}/handback`],
    ];
    for (const [method, path, body] of routes) {
      expect([method, path, (await call(method, `/v1/bots/${bot.botId}${path}`, body, other)).status]).toEqual([method, path, 401]);
      expect([method, path, (await call(method, `/v1/bots/${bot.botId}${path}`, body, null)).status]).toEqual([method, path, 401]);
    }
    expect(await db.botDefinitionDraft.count({ where: { botId: bot.botId } })).toBe(0);
  });

  it('keeps a draft: refuses an invalid one with every error naming journey, node and field, and keeps the valid one', async () => {
    expect(await api('GET', '/definition')).toEqual({ status: 200, body: { draft: null, draftUpdatedAt: null, publishedVersion: null } });
    const refused = await api('PUT', '/definition', brokenBot());
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'error', message: expect.stringMatching(/^Invalid bot definition: welcome\/\S+ \S+: /) });
    const errors = refused.body.errors as Array<{ journey: string; node: string; field: string; message: string }>;
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const e of errors) expect(e).toEqual({ journey: 'welcome', node: expect.any(String), field: expect.any(String), message: expect.any(String) });
    expect(errors).toContainEqual({ journey: 'welcome', node: 'hello', field: 'edges[0].to', message: expect.stringContaining('"nowhere"') });
    expect(errors).toContainEqual({ journey: 'welcome', node: 'hello', field: 'text', message: expect.stringContaining('"nobody"') });
    expect(await db.botDefinitionDraft.count({ where: { botId: bot.botId } })).toBe(0);

    for (const notADefinition of [[greetingBot()], 'text', 5]) {
      expect((await api('PUT', '/definition', notADefinition)).status).toBe(400);
    }
    const saved = await api('PUT', '/definition', greetingBot());
    expect(saved).toEqual({ status: 200, body: { message: 'Draft saved', status: 'success', draftUpdatedAt: expect.any(String), warnings: [] } });
    expect(await api('GET', '/definition')).toEqual({ status: 200, body: { draft: greetingBot(), draftUpdatedAt: saved.body.draftUpdatedAt, publishedVersion: null } });
  });

  it('publishes: the draft (201 {version}), then a definition in one call; 409 for a bot without a draft; 400 for bad bodies', async () => {
    const fresh = await seedSdkBot(stack.gateway);
    const none = await api('POST', '/definition/publish', {}, fresh);
    expect(none).toMatchObject({ status: 409, body: { status: 'error', message: expect.stringContaining('no draft to publish') } });

    expect(await api('POST', '/definition/publish', { note: 'first' })).toEqual({ status: 201, body: { message: 'Draft published', status: 'success', version: 1, warnings: [] } });
    expect(await api('POST', '/versions', { definition: greetingBot('Hello again'), note: 'second' })).toEqual({
      status: 201,
      body: { message: 'Version published', status: 'success', version: 2, warnings: [] },
    });
    const refused = await api('POST', '/versions', { definition: brokenBot() });
    expect(refused).toMatchObject({ status: 400, body: { errors: expect.arrayContaining([expect.objectContaining({ journey: 'welcome' })]) } });
    expect(await api('POST', '/versions', {})).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^definition /) } });
    expect(await api('POST', '/versions', { definition: [] })).toMatchObject({ status: 400, body: { message: 'definition must be an object' } });
    expect(await api('POST', '/versions', { definition: greetingBot(), note: 'x'.repeat(501) })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^note /) } });
    expect(await api('POST', '/definition/publish', { extra: 1 })).toMatchObject({ status: 400, body: { message: expect.stringContaining('extra') } });
    expect(await db.botVersion.count({ where: { botId: bot.botId } })).toBe(2);
  });

  it('answers the warnings of a definition that runs but probably not as meant (saved and published all the same), and documents them in the OpenAPI', async () => {
    const fresh = await seedSdkBot(stack.gateway);
    const warning = {
      journey: 'welcome',
      node: 'ask',
      field: 'maxRetries',
      message: expect.stringMatching(/^no "invalid" edge: after 2 retries without a valid answer the user gets the apology and the journey ends/),
    };
    expect(await api('PUT', '/definition', askingBot(), fresh)).toEqual({ status: 200, body: { message: 'Draft saved', status: 'success', draftUpdatedAt: expect.any(String), warnings: [warning] } });
    expect(await api('POST', '/definition/publish', {}, fresh)).toEqual({ status: 201, body: { message: 'Draft published', status: 'success', version: 1, warnings: [warning] } });
    expect(await api('POST', '/versions', { definition: askingBot() }, fresh)).toEqual({ status: 201, body: { message: 'Version published', status: 'success', version: 2, warnings: [warning] } });
    expect((await api('GET', '/versions', undefined, fresh)).body).toMatchObject({ publishedVersion: 2 });
    // A refused definition answers its errors only, as before.
    expect(Object.keys((await api('POST', '/versions', { definition: brokenBot() }, fresh)).body).sort()).toEqual(['errors', 'message', 'status']);

    const doc = (await (await fetch(`${stack.url}/docs/openapi.json`)).json()) as any;
    const answer = (path: string, method: string, status: string) => doc.paths[path][method].responses[status].content['application/json'].schema.$ref.split('/').pop();
    const schema = (name: string) => doc.components.schemas[name];
    for (const [path, method, status] of [
      ['/v1/bots/{botId}/definition', 'put', '200'],
      ['/v1/bots/{botId}/definition/publish', 'post', '201'],
      ['/v1/bots/{botId}/versions', 'post', '201'],
    ] as const) {
      const shape = schema(answer(path, method, status));
      expect([path, shape.required]).toEqual([path, expect.arrayContaining(['warnings'])]);
      expect(shape.properties.warnings).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/DefinitionProblemDto' } });
    }
    expect(Object.keys(schema('DefinitionProblemDto').properties).sort()).toEqual(['field', 'journey', 'message', 'node']);
  });

  it('lists versions and reads one; rolls back to an earlier one; 404 for an unknown version, 400 for a bad number', async () => {
    const listed = await api('GET', '/versions');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      publishedVersion: 2,
      versions: [
        { version: 2, createdAt: expect.any(String), note: 'second', publishedBy: expect.stringMatching(/^api-key:/), published: true },
        { version: 1, createdAt: expect.any(String), note: 'first', publishedBy: expect.stringMatching(/^api-key:/), published: false },
      ],
    });
    expect(await api('GET', '/versions/1')).toMatchObject({ status: 200, body: { version: 1, published: false, definition: greetingBot() } });
    expect(await api('GET', '/versions/9')).toMatchObject({ status: 404, body: { message: expect.stringContaining('no version 9') } });
    expect(await api('GET', '/versions/abc')).toMatchObject({ status: 400, body: { message: 'version must be a positive integer' } });

    expect(await api('POST', '/versions/1/rollback')).toEqual({ status: 200, body: { message: 'Rolled back', status: 'success', publishedVersion: 1 } });
    expect((await api('GET', '/definition')).body.publishedVersion).toBe(1);
    expect(await api('POST', '/versions/9/rollback')).toMatchObject({ status: 404 });
    expect(await api('POST', '/versions/0/rollback')).toMatchObject({ status: 400 });
    expect((await api('GET', '/definition')).body.publishedVersion).toBe(1);
  });

  it('unpublishes: the bot is an outside bot again; 404 when nothing is published', async () => {
    const fresh = await seedSdkBot(stack.gateway);
    expect((await api('POST', '/versions', { definition: greetingBot() }, fresh)).status).toBe(201);
    expect(await api('DELETE', '/definition/published', undefined, fresh)).toMatchObject({ status: 200, body: { publishedVersion: null } });
    expect((await api('GET', '/definition', undefined, fresh)).body.publishedVersion).toBeNull();
    expect(await api('DELETE', '/definition/published', undefined, fresh)).toMatchObject({ status: 404 });
    expect((await api('GET', '/versions', undefined, fresh)).body).toMatchObject({ publishedVersion: null, versions: [{ version: 1, published: false }] });
  });

  it('keeps secrets sealed: names and times are listed, values never; 400 naming a bad name or value', async () => {
    const value = 'sk_live_do-not-show-9f8e7d';
    expect(await api('PUT', '/secrets/CRM_TOKEN', { value })).toEqual({ status: 200, body: { message: 'Secret saved', status: 'success', name: 'CRM_TOKEN' } });
    expect((await api('PUT', '/secrets/OTHER', { value: 'v2' })).status).toBe(200);
    const listed = await api('GET', '/secrets');
    expect(listed.body).toEqual({
      secrets: [
        { name: 'CRM_TOKEN', updatedAt: expect.any(String) },
        { name: 'OTHER', updatedAt: expect.any(String) },
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain(value);
    for (const path of ['/definition', '/versions', '/secrets']) expect(JSON.stringify((await api('GET', path)).body)).not.toContain(value);
    const [row] = await db.$queryRaw<Array<{ value_encrypted: string; key_id: string }>>`SELECT value_encrypted, key_id FROM bot_secrets WHERE bot_id = ${bot.botId}::uuid AND name = 'CRM_TOKEN'`;
    expect(row.value_encrypted).toMatch(/^v1\./);
    expect(row.value_encrypted).not.toContain(value);
    expect(await stack.gateway.get(BotSecretRepository, { strict: false }).reveal(bot.botId)).toEqual({ CRM_TOKEN: value, OTHER: 'v2' });

    expect(await api('PUT', '/secrets/crm_token', { value })).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^name must be/) } });
    expect(await api('PUT', '/secrets/TOKEN', {})).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^value /) } });
    expect(await api('PUT', '/secrets/TOKEN', { value: 5 })).toMatchObject({ status: 400, body: { message: 'value must be a string' } });
    expect(await api('PUT', '/secrets/TOKEN', { value: 'x'.repeat(4097) })).toMatchObject({ status: 400, body: { message: 'value must be at most 4096 characters' } });
    expect((await api('PUT', '/secrets/TOKEN', { value: 'x'.repeat(4096) })).status).toBe(200);

    expect(await api('DELETE', '/secrets/OTHER')).toMatchObject({ status: 200 });
    expect(await api('DELETE', '/secrets/OTHER')).toMatchObject({ status: 404 });
    expect((await api('GET', '/secrets')).body.secrets).toEqual([expect.objectContaining({ name: 'CRM_TOKEN' }), expect.objectContaining({ name: 'TOKEN' })]);
  });

  describe('a conversation of the bot', () => {
    let conversationId: string;
    beforeAll(async () => {
      const repo = stack.gateway.get(ConversationRepository, { strict: false });
      conversationId = (await repo.recordInbound({ botId: bot.botId, channel: 'whatsapp', userId: '919800000301', type: 'text', content: { text: 'hi' }, at: new Date() })).message.conversationId;
    });

    it("has no trace or state before the bot's first turn; 404 for an unknown or another bot's conversation", async () => {
      expect(await api('GET', `/conversations/${conversationId}/trace`)).toEqual({ status: 200, body: { steps: [], next: null } });
      expect(await api('GET', `/conversations/${conversationId}/bot-state`)).toMatchObject({ status: 404, body: { message: expect.stringContaining('has not run') } });
      for (const id of [randomUUID(), 'not-a-uuid']) {
        expect((await api('GET', `/conversations/${id}/trace`)).status).toBe(404);
        expect((await api('GET', `/conversations/${id}/bot-state`)).status).toBe(404);
      }
      // Another bot with its own key does not see this bot's conversation.
      expect((await api('GET', `/conversations/${conversationId}/trace`, undefined, other)).status).toBe(404);
      expect((await api('GET', `/conversations/${conversationId}/bot-state`, undefined, other)).status).toBe(404);
    });

    it('pages the trace in the order the steps ran, and shows the state', async () => {
      const at = new Date('2026-12-10T10:00:00Z');
      const step = (node: string, outcome: string, extra: Json = {}) => ({
        conversationId,
        botId: bot.botId,
        version: 1,
        journey: 'welcome',
        node,
        kind: 'message',
        outcome,
        durationMs: 0.4,
        startedAt: at,
        ...extra,
      });
      await db.botStep.createMany({ data: [step('hello', 'ok'), step('ask', 'waiting'), step('fn', 'limit', { kind: 'function', error: 'CPU time limit (50 ms) exceeded', sandboxMs: 50.2 })] });
      const first = await api('GET', `/conversations/${conversationId}/trace?limit=2`);
      expect(first.body.steps).toEqual([
        { id: expect.stringMatching(/^\d+$/), at: at.toISOString(), version: 1, journey: 'welcome', node: 'hello', kind: 'message', outcome: 'ok', error: null, durationMs: 0.4, sandboxMs: null },
        expect.objectContaining({ node: 'ask', outcome: 'waiting' }),
      ]);
      const last = await api('GET', `/conversations/${conversationId}/trace?limit=2&cursor=${String(first.body.next)}`);
      expect(last.body).toEqual({ steps: [expect.objectContaining({ node: 'fn', kind: 'function', outcome: 'limit', error: 'CPU time limit (50 ms) exceeded', sandboxMs: 50.2 })], next: null });
      expect(await api('GET', `/conversations/${conversationId}/trace?limit=0`)).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^limit /) } });
      expect(await api('GET', `/conversations/${conversationId}/trace?cursor=x`)).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^cursor /) } });

      await db.botConversationState.create({ data: { conversationId, botId: bot.botId, status: 'waiting', version: 1, journey: 'welcome', node: 'ask', variables: { name: 'Ada' } } });
      expect(await api('GET', `/conversations/${conversationId}/bot-state`)).toEqual({
        status: 200,
        body: { status: 'waiting', version: 1, journey: 'welcome', node: 'ask', variables: { name: 'Ada' }, updatedAt: expect.any(String) },
      });
    });

    it('hands the conversation to an agent and back: the state says handoff, a handback is one input and one bot-turn job', async () => {
      expect(await api('POST', `/conversations/${conversationId}/handback`)).toMatchObject({ status: 409, body: { message: expect.stringContaining('is not handed off') } });
      expect(await api('POST', `/conversations/${conversationId}/handoff`, { reason: 'asked for a person' })).toEqual({
        status: 200,
        body: { message: 'Conversation handed to an agent', status: 'success', state: 'handoff' },
      });
      expect((await api('GET', `/conversations/${conversationId}/bot-state`)).body).toMatchObject({ status: 'handoff', journey: 'welcome', node: 'ask', variables: { name: 'Ada' } });
      expect(await api('POST', `/conversations/${conversationId}/handoff`, { reason: 5 })).toMatchObject({ status: 400, body: { message: 'reason must be a string' } });

      expect(await api('POST', `/conversations/${conversationId}/handback`)).toEqual({ status: 202, body: { message: 'Handed back to the bot', status: 'success' } });
      expect((await api('POST', `/conversations/${conversationId}/handback`)).status).toBe(202); // still waiting for the runtime: the same input
      const inputs = await db.botInput.findMany({ where: { conversationId } });
      expect(inputs).toEqual([expect.objectContaining({ kind: 'handback', botId: bot.botId, processedAt: null })]);
      expect(await turnJobs(stack.gateway, conversationId)).toEqual([{ id: `input-${inputs[0].seq}`, name: 'turn', data: { botId: bot.botId, conversationId } }]);
    });

    it('creates the state in handoff for a conversation the bot has not run in; 409 for a bot that is not hosted', async () => {
      const repo = stack.gateway.get(ConversationRepository, { strict: false });
      const fresh = (await repo.recordInbound({ botId: bot.botId, channel: 'web', userId: 'visitor-handoff', type: 'text', content: { text: 'hi' }, at: new Date() })).message.conversationId;
      expect((await api('POST', `/conversations/${fresh}/handoff`)).status).toBe(200);
      expect((await api('GET', `/conversations/${fresh}/bot-state`)).body).toMatchObject({ status: 'handoff', version: null, journey: null, node: null, variables: {} });

      const outside = (await repo.recordInbound({ botId: other.botId, channel: 'web', userId: 'visitor-x', type: 'text', content: { text: 'hi' }, at: new Date() })).message.conversationId;
      expect(await api('POST', `/conversations/${outside}/handoff`, {}, other)).toMatchObject({ status: 409, body: { message: expect.stringContaining('not a hosted bot') } });
      expect(await db.botConversationState.count({ where: { conversationId: outside } })).toBe(0);
    });
  });

  describe('the CLI', () => {
    /** The exit code and stdout; `err`, what went to stderr. */
    async function cli(...argv: string[]): Promise<{ code: number; out: string }> {
      const { code, out } = await cliWithStderr(...argv);
      return { code, out };
    }
    async function cliWithStderr(...argv: string[]): Promise<{ code: number; out: string; err: string[] }> {
      const lines: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        argv,
        (l) => lines.push(l),
        stack.env,
        (l) => err.push(l),
      );
      return { code, out: lines.join('\n'), err };
    }
    const file = (name: string, doc: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc));
      return path;
    };

    it('deploys a definition file, lists versions and rolls back', async () => {
      const cliBot = await seedSdkBot(stack.gateway);
      const broken = await cli('bot', 'deploy', '--bot', cliBot.botId, '--file', file('broken.json', brokenBot()));
      expect(broken.code).toBe(1);
      const lines = broken.out.split('\n');
      expect(lines[0]).toMatch(/broken\.json: \d+ error\(s\), nothing published:$/);
      expect(lines.slice(1).length).toBeGreaterThanOrEqual(2);
      for (const line of lines.slice(1)) expect(line).toMatch(/^ {2}welcome\/\S+ \S+: .+/);
      expect(await db.botVersion.count({ where: { botId: cliBot.botId } })).toBe(0);

      expect(await cli('bot', 'deploy', '--bot', cliBot.botId, '--file', file('v1.json', greetingBot()), '--note', 'first')).toEqual({ code: 0, out: `bot ${cliBot.botId}: version 1 published` });
      expect((await cli('bot', 'deploy', '--bot', cliBot.botId, '--file', file('v2.json', greetingBot('v2')))).code).toBe(0);
      const versions = await cli('bot', 'versions', '--bot', cliBot.botId);
      expect(versions.code).toBe(0);
      expect(versions.out.split('\n')).toEqual([expect.stringMatching(/^\* 2 {2}\S+ {2}cli$/), expect.stringMatching(/^ {2}1 {2}\S+ {2}cli {2}first$/)]);

      expect(await cli('bot', 'rollback', '--bot', cliBot.botId, '--version', '1')).toEqual({ code: 0, out: `bot ${cliBot.botId}: version 1 published` });
      expect((await api('GET', '/definition', undefined, cliBot)).body.publishedVersion).toBe(1);
      expect((await api('GET', '/versions/2', undefined, cliBot)).body.definition).toEqual(greetingBot('v2'));
    });

    it('deploys a definition with warnings: published (exit code 0, the version on stdout), each warning on stderr with its journey/node and field', async () => {
      const cliBot = await seedSdkBot(stack.gateway);
      const path = file('asking.json', askingBot());
      const deployed = await cliWithStderr('bot', 'deploy', '--bot', cliBot.botId, '--file', path);
      expect({ code: deployed.code, out: deployed.out }).toEqual({ code: 0, out: `bot ${cliBot.botId}: version 1 published` });
      expect(deployed.err).toHaveLength(1);
      expect(deployed.err[0]).toContain(`${path}: warning: welcome/ask maxRetries: no "invalid" edge: after 2 retries without a valid answer`);
      expect(await db.botVersion.count({ where: { botId: cliBot.botId } })).toBe(1);
      // Without warnings, stderr stays empty.
      expect((await cliWithStderr('bot', 'deploy', '--bot', cliBot.botId, '--file', file('plain.json', greetingBot()))).err).toEqual([]);
    });

    it('refuses bad arguments with exit code 2 and a message naming the problem', async () => {
      const cliBot = await seedSdkBot(stack.gateway);
      const unknown = randomUUID();
      expect(await cli('bot', 'deploy', '--bot', unknown, '--file', file('ok.json', greetingBot()))).toEqual({ code: 2, out: `error: no bot ${unknown}` });
      expect(await cli('bot', 'deploy', '--bot', cliBot.botId, '--file', join(dir, 'missing.json'))).toMatchObject({ code: 2, out: expect.stringContaining('cannot read') });
      expect(await cli('bot', 'deploy', '--bot', cliBot.botId, '--file', file('bad.json', '{not json'))).toMatchObject({ code: 2, out: expect.stringContaining('as JSON') });
      expect(await cli('bot', 'rollback', '--bot', cliBot.botId, '--version', 'x')).toEqual({ code: 2, out: 'error: --version must be a positive integer' });
      expect(await cli('bot', 'rollback', '--bot', cliBot.botId, '--version', '3')).toEqual({ code: 2, out: `error: bot ${cliBot.botId} has no version 3` });
      expect(await cli('bot', 'versions', '--bot', cliBot.botId)).toEqual({ code: 0, out: `bot ${cliBot.botId} has no versions (deploy one with bot deploy)` });
      expect((await cli('bot', 'deploy', '--bot', cliBot.botId)).code).toBe(2);
    });
  });
});
