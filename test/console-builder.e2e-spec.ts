import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { jest } from '@jest/globals';
import type { Dialog, Page } from 'playwright-core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createBotRuntime } from '../apps/bot-runtime/src/create-bot-runtime.js';
import { seedBotAdmin } from '@platform/testing';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshot, screenshots, sidewaysScroll, signIn } from './console-browser.js';
import { sqlRows } from './push-support.js';
import { useStack } from './e2e-stack.js';
import { eventually } from './sdk-support.js';

jest.setTimeout(240_000);

/** docs/console.md#size: the console's first load (index.html's script, preloads and style), gzip -9. */
function firstLoadBytes(): { total: number; files: Record<string, number> } {
  const dir = join(process.cwd(), 'dist', 'console');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files: Record<string, number> = {};
  for (const [, path] of html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.(?:js|css))"/g)) files[path!] = gzipSync(readFileSync(join(dir, path!)), { level: 9 }).length;
  return { total: Object.values(files).reduce((a, b) => a + b, 0), files };
}

/**
 * The bot builder (docs/console.md#bot-builder): its API for members, the try-it conversations on the real
 * runtime, and in Chromium a bot built by dragging, fixed after a validation error on its node, published,
 * tried and traced, then a keyboard-only add, connect and edit; axe at 390 and 1280 px.
 */
describe('console bot builder (API and Chromium)', () => {
  const stack = useStack({ seed: true });
  const browser = new ConsoleBrowser();
  let runtime: NestFastifyApplication;
  stack.defer(() => runtime?.close());
  stack.defer(() => browser.close());
  const sql = (text: string, params: unknown[] = []) => sqlRows(stack.env.DATABASE_URL, text, params);

  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/builder${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const small = {
    schemaVersion: 1,
    startJourney: 'main',
    variables: [
      { name: 'name', type: 'string' },
      { name: 'more', type: 'string' },
    ],
    journeys: [
      {
        slug: 'main',
        start: 'ask',
        nodes: [
          { id: 'ask', kind: 'question', text: 'Name?', answer: { type: 'text' }, variable: 'name' },
          { id: 'more', kind: 'question', text: 'Anything else, {{variables.name}}?', answer: { type: 'text' }, variable: 'more' },
          { id: 'bye', kind: 'end', text: 'Bye {{variables.name}}' },
        ],
        edges: [
          { from: 'ask', to: 'more' },
          { from: 'more', to: 'bye' },
        ],
      },
    ],
  };

  beforeAll(async () => {
    runtime = await createBotRuntime({ ...stack.env, BOT_RUNTIME_HEALTH_PORT: '0' });
    await browser.launch();
  });

  it('API: members read (viewer) and change (developer) the draft; check, publish, versions, rollback; try-it runs the draft and stays out of the overview, inbox and versions', async () => {
    const viewer = await seedBotAdmin(stack.gateway, stack.seed.botId, 'viewer');
    const dev = await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer');
    expect((await call(viewer.accessToken, 'GET', '/definition')).body).toEqual({ draft: null, draftUpdatedAt: null, publishedVersion: null });
    expect((await call(viewer.accessToken, 'PUT', '/definition', small)).status).toBe(403);
    expect((await call(dev.accessToken, 'POST', '/try', {})).status).toBe(409); // no draft yet

    // A check names the node and field, and saves nothing.
    const broken = { ...small, journeys: [{ ...small.journeys[0], nodes: [{ ...small.journeys[0]!.nodes[0], variable: 'nope' }, small.journeys[0]!.nodes[1]] }] };
    const checked = await call(viewer.accessToken, 'POST', '/validate', broken);
    expect(checked.status).toBe(200);
    expect(checked.body.ok).toBe(false);
    expect(checked.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ journey: 'main', node: 'ask', field: 'variable' })]));
    expect((await call(dev.accessToken, 'PUT', '/definition', broken)).status).toBe(400);
    // Warnings come with the check whether or not it has errors: neither question has an "invalid" edge.
    const noInvalidEdge = (node: string) => ({ journey: 'main', node, field: 'maxRetries', message: expect.stringMatching(/^no "invalid" edge: after 2 retries /) });
    expect(checked.body.warnings).toEqual([noInvalidEdge('ask'), noInvalidEdge('more')]);
    expect((await call(viewer.accessToken, 'POST', '/validate', small)).body).toEqual({ ok: true, errors: [], warnings: [noInvalidEdge('ask'), noInvalidEdge('more')] });
    const withInvalidEdges = {
      ...small,
      journeys: [{ ...small.journeys[0], edges: [...small.journeys[0]!.edges, { from: 'ask', to: 'bye', on: 'invalid' }, { from: 'more', to: 'bye', on: 'invalid' }] }],
    };
    expect((await call(viewer.accessToken, 'POST', '/validate', withInvalidEdges)).body).toEqual({ ok: true, errors: [], warnings: [] });

    // Saved with its warnings, which never refuse it.
    expect((await call(dev.accessToken, 'PUT', '/definition', small)).body).toEqual({
      message: 'Draft saved',
      status: 'success',
      draftUpdatedAt: expect.any(String),
      warnings: [noInvalidEdge('ask'), noInvalidEdge('more')],
    });
    // Tried before anything is published: the runtime runs the draft.
    const tried = await call(dev.accessToken, 'POST', '/try', {});
    expect(tried.status).toBe(201);
    expect(tried.body.version).toBeLessThan(0);
    const id = tried.body.conversationId as string;
    const view = () => call(dev.accessToken, 'GET', `/try/${id}`);
    await eventually(async () => ((await view()).body.state?.node === 'ask' ? true : undefined), 15_000, 'the question');
    expect((await call(dev.accessToken, 'POST', `/try/${id}/messages`, { text: '  ' })).status).toBe(400);
    expect((await call(dev.accessToken, 'POST', `/try/${id}/messages`, { text: 'Ada' })).status).toBe(202);
    // While a journey runs, the state carries its variables.
    const waiting = await eventually(
      async () => {
        const v = (await view()).body;
        return v.state?.node === 'more' ? v : undefined;
      },
      15_000,
      'the second question',
    );
    expect(waiting.state.variables).toMatchObject({ name: 'Ada' });
    expect((await call(dev.accessToken, 'POST', `/try/${id}/messages`, { text: 'no' })).status).toBe(202);
    const done = await eventually(
      async () => {
        const v = (await view()).body;
        // transcript, trace and state are three reads: wait until all three show the ended turn
        return v.messages.some((m: any) => m.content.text === 'Bye Ada') && v.trace.length === 5 && v.state?.status === 'ended' ? v : undefined;
      },
      15_000,
      'the answer',
    );
    expect(done.messages.map((m: any) => `${m.direction}:${m.content.text}`)).toEqual(['outbound:Name?', 'inbound:Ada', 'outbound:Anything else, Ada?', 'inbound:no', 'outbound:Bye Ada']);
    expect(done.trace.map((s: any) => `${s.node}:${s.outcome}`)).toEqual(['ask:waiting', 'ask:ok', 'more:waiting', 'more:ok', 'bye:ok']);
    expect(done.trace.every((s: any) => s.version === tried.body.version)).toBe(true);
    expect(done.state.status).toBe('ended');

    // The live trace: a single-use ticket (developer), then Server-Sent Events with every step and the variables it left.
    expect((await call(viewer.accessToken, 'POST', `/try/${id}/stream-ticket`)).status).toBe(403);
    const ticket = await call(dev.accessToken, 'POST', `/try/${id}/stream-ticket`);
    expect(ticket.status).toBe(201);
    expect(ticket.body.url).toBe(`/v1/bots/${stack.seed.botId}/builder/try/${id}/stream?ticket=${ticket.body.ticket}`);
    const abort = new AbortController();
    const stream = await fetch(`${stack.url}${ticket.body.url}`, { signal: abort.signal });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    let text = '';
    while ((text.match(/event: step/g) ?? []).length < 5) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    const steps = [...text.matchAll(/event: step\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!));
    expect(steps.map((st) => `${st.node}:${st.outcome}`)).toEqual(['ask:waiting', 'ask:ok', 'more:waiting', 'more:ok', 'bye:ok']);
    expect(steps[1].variables).toMatchObject({ name: 'Ada' });
    expect(steps[0].variables).not.toHaveProperty('name', 'Ada');
    // spent, and another test's stream is refused too
    expect((await fetch(`${stack.url}${ticket.body.url}`)).status).toBe(401);
    expect((await call(viewer.accessToken, 'GET', `/try/${id}`)).status).toBe(403);
    expect((await call(dev.accessToken, 'GET', `/try/00000000-0000-4000-8000-000000000000`)).status).toBe(404);

    // Published versions stay 1, 2, …; the test version is never listed nor published. A publish answers the warnings it was published with.
    expect((await call(dev.accessToken, 'POST', '/publish', { note: 'first' })).body).toEqual({
      message: 'Draft published',
      status: 'success',
      version: 1,
      warnings: [noInvalidEdge('ask'), noInvalidEdge('more')],
    });
    // A draft without the node "more" whose edges still name it is refused: each end of an edge that names no
    // node, and "bye", which no edge reaches now; the draft stays as it was.
    const withoutMore = { ...small, journeys: [{ ...small.journeys[0], nodes: [small.journeys[0]!.nodes[0], { id: 'bye', kind: 'end', text: 'Ciao' }] }] };
    const dangling = await call(dev.accessToken, 'PUT', '/definition', withoutMore);
    expect([dangling.status, dangling.body.message, dangling.body.errors]).toEqual([
      400,
      'Invalid bot definition: main/ask edges[0].to: the edge leads to "more", which is not a node of this journey; main edges[1].from: the edge leaves "more", which is not a node of this journey; main/bye id: the node "bye" cannot be reached from the journey\'s start "ask"',
      [
        { journey: 'main', node: 'ask', field: 'edges[0].to', message: 'the edge leads to "more", which is not a node of this journey' },
        { journey: 'main', node: null, field: 'edges[1].from', message: 'the edge leaves "more", which is not a node of this journey' },
        { journey: 'main', node: 'bye', field: 'id', message: 'the node "bye" cannot be reached from the journey\'s start "ask"' },
      ],
    ]);
    expect((await call(viewer.accessToken, 'GET', '/definition')).body.draft).toEqual(small);
    // With the edge joined to "bye" it is saved, and version 2 is that draft: only "ask" is left to warn about.
    const saved2 = await call(dev.accessToken, 'PUT', '/definition', { ...withoutMore, journeys: [{ ...withoutMore.journeys[0], edges: [{ from: 'ask', to: 'bye' }] }] });
    expect([saved2.status, saved2.body.warnings]).toEqual([200, [noInvalidEdge('ask')]]);
    expect((await call(dev.accessToken, 'POST', '/publish', {})).body).toMatchObject({ version: 2, warnings: [noInvalidEdge('ask')] });
    const versions = await call(viewer.accessToken, 'GET', '/versions');
    expect(versions.body.versions.map((v: any) => v.version)).toEqual([2, 1]);
    expect(versions.body.versions[0].publishedBy).toBe(`user:${dev.userId}`);
    expect((await call(dev.accessToken, 'POST', '/versions/1/rollback')).body.publishedVersion).toBe(1);
    expect((await call(dev.accessToken, 'POST', '/versions/-1/rollback')).status).toBe(400);

    // The test conversation counts nowhere: the overview's conversations and journeys, the inbox.
    const admin = await seedBotAdmin(stack.gateway, stack.seed.botId, 'admin');
    const overview = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/overview`, { headers: { authorization: `Bearer ${admin.accessToken}` } }).then((r) => r.json() as Promise<any>);
    expect(overview.conversations.map((c: any) => c.conversations)).toEqual(overview.conversations.map(() => 0));
    expect(overview.journeys).toEqual([]);
    const inbox = await fetch(`${stack.url}/v1/bots/${stack.seed.botId}/inbox/conversations`, { headers: { authorization: `Bearer ${admin.accessToken}` } }).then((r) => r.json() as Promise<any>);
    expect(inbox.conversations).toEqual([]);

    // The OpenAPI document describes the warnings of the check, the save and the publish.
    const doc = (await (await fetch(`${stack.url}/docs/openapi.json`)).json()) as any;
    for (const [path, method] of [
      ['/v1/bots/{botId}/builder/validate', 'post'],
      ['/v1/bots/{botId}/builder/definition', 'put'],
      ['/v1/bots/{botId}/builder/publish', 'post'],
    ] as const) {
      const name = doc.paths[path][method].responses['200'].content['application/json'].schema.$ref.split('/').pop();
      expect([path, doc.components.schemas[name].properties.warnings]).toEqual([path, expect.objectContaining({ type: 'array', items: { $ref: '#/components/schemas/DefinitionProblemDto' } })]);
      expect([path, doc.components.schemas[name].required]).toEqual([path, expect.arrayContaining(['warnings'])]);
    }
  });

  describe('in Chromium', () => {
    let page: Page;
    let dev: Awaited<ReturnType<typeof seedBotAdmin>>;
    beforeAll(async () => {
      // A clean slate: no draft, nothing published.
      await sql(`DELETE FROM bot_definitions WHERE bot_id = $1`, [stack.seed.botId]);
      await sql(`DELETE FROM bot_versions WHERE bot_id = $1`, [stack.seed.botId]);
      dev = await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer');
      ({ page } = await browser.newPage(stack.url));
      await signIn(page, stack.url, dev);
    });

    // Animations (the canvas's fit to view) ended, or a second passed (an endless animation never ends).
    const transitionsEnded = () => page.evaluate(() => Promise.race([Promise.all(document.getAnimations().map((a) => a.finished)), new Promise((resolve) => setTimeout(resolve, 1000))]));
    const accessibleAtBothWidths = async () => {
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        expect(await axeViolations(page)).toEqual([]);
        expect(await sidewaysScroll(page)).toEqual([]);
      }
    };

    it('first load stays ≤ 60 KB; the builder chunk is fetched only when the builder opens', async () => {
      const size = firstLoadBytes();
      expect(size.total).toBeLessThanOrEqual(60 * 1024);
      expect(Object.keys(size.files).some((f) => f.includes('builder'))).toBe(false);
      const fetched = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name.split('/').pop() ?? ''));
      expect((await fetched()).some((n) => n.startsWith('builder-'))).toBe(false);
      await page.getByRole('link', { name: 'Builder' }).click();
      await page.getByRole('heading', { name: 'Bot builder' }).waitFor();
      expect((await fetched()).some((n) => n.startsWith('builder-'))).toBe(true);
    });

    it('builds a bot by dragging, sees the error on its node, fixes it, publishes, tries it and sees the trace', async () => {
      // The starter bot: hello → bye, laid out by elkjs.
      await page.getByTestId('flow-node-hello').waitFor();
      await page.getByTestId('flow-node-bye').waitFor();
      // Drag a Question from the palette onto the canvas.
      await page.getByRole('button', { name: '+ Question' }).dragTo(page.getByTestId('flow-canvas'), { targetPosition: { x: 30, y: 30 } });
      await page.getByTestId('flow-node-question-1').waitFor();
      // It stores its answer nowhere yet: the validator's error shows on the node.
      await page
        .getByTestId('node-errors-question-1')
        .getByText(/variable/)
        .waitFor();
      await page
        .getByTestId('builder-errors')
        .getByText(/main\/question-1/)
        .waitFor();
      // A shape the schema refuses gives no warnings: the later checks cannot read it.
      expect(await page.getByTestId('node-warnings-question-1').count()).toBe(0);
      await accessibleAtBothWidths();
      await screenshots(page, 'builder-error');

      // Fix: a variable, picked in the node's form.
      await page.getByRole('button', { name: 'Variables', exact: true }).click();
      await page.getByLabel('Variable name').fill('name');
      await page.getByRole('button', { name: 'Add variable' }).click();
      await page.getByRole('button', { name: 'Flow', exact: true }).click();
      await page.getByRole('button', { name: /^question-1 · Question/ }).click();
      await page.getByLabel('Store the answer in').selectOption('name');
      await page
        .getByTestId('node-errors-question-1')
        .getByText(/variable/)
        .waitFor({ state: 'detached' });
      // Still unreachable (an error), and with no "invalid" edge: a warning, on the node and in a list of its own,
      // told apart from the errors in words (Warning) and in colour, never counted among them.
      await page
        .getByTestId('node-errors-question-1')
        .getByText(/cannot be reached/)
        .waitFor();
      const nodeWarnings = page.getByTestId('node-warnings-question-1');
      await nodeWarnings.getByText(/^Warning: maxRetries: no "invalid" edge: after 2 retries/).waitFor();
      const warningList = page.getByTestId('builder-warnings');
      await warningList.getByRole('button', { name: 'main/question-1 · maxRetries' }).waitFor();
      expect(await warningList.locator('summary').textContent()).toMatch(/^\s*1 warning: the bot runs, but maybe not as you mean \(saving and publishing go ahead\)$/);
      expect(await warningList.getAttribute('class')).toMatch(/\bnotice warning\b/);
      expect(
        await page
          .getByTestId('builder-errors')
          .getByText(/"invalid" edge/)
          .count(),
      ).toBe(0);
      expect(
        await page
          .getByTestId('node-errors-question-1')
          .getByText(/"invalid" edge/)
          .count(),
      ).toBe(0);
      const colour = (testId: string) => page.getByTestId(testId).evaluate((el) => getComputedStyle(el).color);
      expect(await colour('node-warnings-question-1')).not.toBe(await colour('node-errors-question-1'));
      expect(await colour('builder-warnings')).not.toBe(await colour('builder-errors'));
      await accessibleAtBothWidths();
      await screenshots(page, 'builder-error-and-warning');

      // Connect by dragging the question's next handle onto bye; hello goes on to the question through its form's "connect to…".
      // First the whole flow in view, as a person would: the question grew with its error and warning, and its
      // exits can be below the canvas's edge (where the canvas centred it before it grew).
      await page.locator('.react-flow__controls-fitview').click();
      await transitionsEnded();
      const handle = (node: string, type: 'source' | 'target', id?: string) => page.locator(`.react-flow__node[data-id="${node}"] .react-flow__handle.${type}${id ? `[data-handleid="${id}"]` : ''}`);
      // In steps, as a hand moves: React Flow starts a connection on the press and looks for the handle under
      // the pointer as it moves, and a single move with the release at once can outrun it on a loaded host.
      await handle('question-1', 'source', 'next').dragTo(handle('bye', 'target'), { steps: 10 });
      await page.getByRole('button', { name: /^hello · Message/ }).click();
      await page.getByLabel('Connect next to…').selectOption('question-1');
      await page.locator('.react-flow__edge[data-id="question-1:next"]').waitFor();
      // Reachable and storing its answer: no problem is left.
      await page.getByTestId('node-errors-question-1').waitFor({ state: 'detached' });
      await page.getByTestId('builder-errors').waitFor({ state: 'detached' });
      // The warning stays (saving and publishing go ahead): on the node, in the node list, in its form and above the canvas.
      await nodeWarnings.waitFor();
      await page.getByRole('button', { name: /^question-1 · Question/ }).click();
      expect(await page.getByRole('button', { name: /^question-1 · Question/ }).textContent()).toBe('question-1 · Question · 1 warning');
      const formWarnings = page.getByTestId('node-form-warnings');
      await formWarnings.getByText(/^maxRetries: no "invalid" edge: after 2 retries without a valid answer the user gets the apology/).waitFor();
      expect(await formWarnings.getByText('Warning', { exact: true }).count()).toBe(1);
      expect(await page.getByTestId('node-form-errors').count()).toBe(0);
      await warningList.waitFor();
      await accessibleAtBothWidths();
      await screenshots(page, 'builder-warning');
      expect(await page.getByLabel('Connect next to…').inputValue()).toBe('bye');
      await page.getByRole('button', { name: /^hello · Message/ }).click();
      expect(await page.getByLabel('Connect next to…').inputValue()).toBe('question-1');
      await page.getByLabel('Text', { exact: true }).fill('Hi there!');
      await page.getByLabel('Text', { exact: true }).press('Tab'); // a form's fields change the node when left

      // Publish: version 1, with what changed.
      await page.getByLabel('Note').fill('asks the name');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      // Published all the same, saying with what.
      await page.getByText('Published version 1: new conversations start on it (with 1 warning, listed above)').waitFor();
      await page.getByRole('button', { name: 'Versions', exact: true }).click();
      await page.getByTestId('version-1').getByText('asks the name').waitFor();
      // When, naming its time zone, and who: the member's e-mail, not the API's "user:<id>".
      const published = await page.getByTestId('version-1').locator('.muted').first().textContent();
      expect(published).toMatch(new RegExp(`\\d:\\d\\d:\\d\\d\\s?[AP]M (UTC|GMT[+-]?[\\d:]*) · by ${dev.email.replace(/[.+]/g, '\\$&')}$`));
      await page.getByTestId('version-1').getByText('What changed from nothing').click();
      await page.getByTestId('version-1').getByText('journey main added (3 nodes)').waitFor();
      await page.getByTestId('draft-changes').getByText('No changes.').waitFor();
      await page.getByRole('button', { name: 'Flow', exact: true }).click();
      // An "invalid" edge answers the warning: it goes from the node, its form and the list.
      await page.getByRole('button', { name: /^question-1 · Question/ }).click();
      await page.getByLabel('Connect invalid to…').selectOption('bye');
      await nodeWarnings.waitFor({ state: 'detached' });
      await warningList.waitFor({ state: 'detached' });
      expect(await formWarnings.count()).toBe(0);

      // Try it: the draft on the runtime in the hosted chat page (an iframe), the trace beside it, live.
      await page.getByRole('button', { name: 'Try the draft' }).click();
      const chat = page.frameLocator('[data-testid="try-chat"]');
      await chat
        .getByText('Hi there!')
        .waitFor()
        .catch(async (err) => {
          await page.screenshot({ path: '.local/screenshots/console/builder-debug-try.png', fullPage: true });
          throw err;
        });
      await chat.getByText('What is your name?').waitFor();
      const trace = page.getByTestId('try-trace');
      await trace
        .getByText(/main\/question-1/)
        .first()
        .waitFor(); // the bot waits at the question
      expect(await page.getByTestId('try-state').textContent()).toMatch(/^Test \d+\. .*waits for an answer at main\/question-1/);
      // The page's own secrets stay in the console: the chat page holds only its chat token.
      expect(await page.getByTestId('try-chat').getAttribute('src')).toMatch(/^\/web\/bot\?botId=[0-9a-f-]+&enableSpeech=false#ymAuthenticationToken=[A-Za-z0-9_-]{32}$/);
      await chat.getByRole('textbox', { name: 'Message' }).fill('Ada');
      await chat.getByRole('textbox', { name: 'Message' }).press('Enter');
      await chat.getByText('Goodbye!').waitFor();
      // The trace grew without a reload: the answer's step shows the variable it set.
      await trace.getByText(/main\/bye/).waitFor();
      const answered = trace.locator('li', { hasText: 'question-1' }).filter({ hasText: ' ok ' }).first();
      await answered.getByText('Variables after this step').click();
      await answered.getByText(/"name": "Ada"/).waitFor();
      // A step shows its node in the graph.
      await answered.getByRole('button', { name: /main\/question-1/ }).click();
      await page.locator('.flow-node.selected[data-testid="flow-node-question-1"]').waitFor();
      await page.getByRole('form', { name: 'Node question-1' }).waitFor();
      await accessibleAtBothWidths();
      await screenshots(page, 'builder-try');
    });

    it('shows a sandbox error on its step in the live trace', async () => {
      await page.getByRole('button', { name: '+ Function' }).click();
      await page.getByLabel('Code (JavaScript, run in the sandbox)').fill("throw new Error('boom');");
      await page.getByLabel('Code (JavaScript, run in the sandbox)').press('Tab');
      await page.getByRole('button', { name: 'Make it the start' }).click();
      await page.getByLabel('Connect next to…').selectOption('hello');
      // The new node's edge is drawn: its handles were measured, however its updates interleaved.
      await page.locator('.react-flow__edge[data-id="function-1:next"]').waitFor();
      await page.getByRole('button', { name: 'Restart the test' }).click();
      const bad = page.getByTestId('try-trace').locator('li.bad');
      await bad.getByText(/boom/).waitFor();
      await bad.getByText(/main\/function-1/).waitFor();
      // a new test is a new chat page: the last test's messages are gone
      await page.frameLocator('[data-testid="try-chat"]').getByText('Goodbye!').waitFor({ state: 'detached' });
      await bad.getByRole('button', { name: /main\/function-1/ }).click();
      await page.locator('.flow-node.selected[data-testid="flow-node-function-1"]').waitFor();
      await accessibleAtBothWidths();
      await screenshots(page, 'builder-try-error');
    });

    it('keyboard only: add a node, edit its form, connect it, roll back', async () => {
      // Add a message node from the palette with Enter: its form takes the focus.
      await page.getByRole('button', { name: '+ Message' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('form', { name: 'Node message-1' }).waitFor();
      // The form takes the focus once it has rendered (a frame later on a loaded host); a focus that never lands fails here.
      await page.waitForFunction(() => document.activeElement?.id === 'node-id', undefined, { timeout: 5000 });
      await page.keyboard.press('Tab'); // label
      await page.keyboard.type('Thanks');
      await page.keyboard.press('Tab'); // text
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Thanks for trying!');
      await page.keyboard.press('Tab'); // quick replies
      await page.keyboard.press('Tab'); // connect next to…
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('node-connect-next');
      await page.keyboard.type('hello'); // selects "hello (Message)"
      await page.keyboard.press('Tab');
      await page.locator('.react-flow__edge[data-id="message-1:next"]').waitFor();
      await page.getByTestId('flow-node-message-1').getByText('Thanks', { exact: true }).waitFor();
      // The function node (the start) goes on to it instead.
      await page.getByRole('button', { name: /^function-1 · Function/ }).focus();
      await page.keyboard.press('Enter');
      // Its form replaces message-1's: until then the field below is message-1's.
      await page.getByRole('form', { name: 'Node function-1' }).waitFor();
      const connect = page.getByLabel('Connect next to…');
      await connect.focus();
      // Arrow keys, not type-ahead, so the choice does not hang on the time between keys (Chromium drops a
      // select's typed prefix after a second); the value is checked before the edge is waited for.
      const [at, to] = await connect.evaluate((select: HTMLSelectElement) => [select.selectedIndex, Array.from(select.options).findIndex((o) => o.value === 'message-1')]);
      expect(to).toBeGreaterThan(-1);
      for (let i = at; i !== to; i += Math.sign(to - at)) await page.keyboard.press(to > at ? 'ArrowDown' : 'ArrowUp');
      expect(await connect.inputValue()).toBe('message-1');
      await page.keyboard.press('Tab');
      await page.locator('.react-flow__edge[data-id="function-1:next"][aria-label="Edge from function-1 to message-1"]').waitFor();
      await page.getByRole('button', { name: 'Save draft' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Draft saved').waitFor();

      // Publish version 2 and roll back to 1, by keyboard.
      await page.getByRole('button', { name: 'Publish', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Published version 2').waitFor();
      await page.getByRole('button', { name: 'Versions', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('version-2').getByText('What changed from version 1').click();
      await page.getByTestId('version-2').getByText('journey main: node message-1 (message) added').waitFor();
      await page.getByTestId('version-2').getByText('journey main: starts at function-1 (was hello)').waitFor();
      await page.getByRole('button', { name: 'Roll back to version 1' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Rolled back: new conversations start on version 1').waitFor();
      await page.getByTestId('version-1').getByText('published', { exact: true }).waitFor();
      const [row] = await sql(`SELECT published_version FROM bot_definitions WHERE bot_id = $1`, [stack.seed.botId]);
      expect(row!.published_version).toBe(1);
      await accessibleAtBothWidths();
      await screenshots(page, 'builder-versions');
      await page.getByRole('button', { name: 'JSON', exact: true }).click();
      await page.getByLabel(/The definition as JSON/).waitFor();
      await screenshots(page, 'builder-json');
      expect(browser.problems).toEqual([]);
    });

    it('unsaved edits: a console link and closing the tab ask first; after leaving anyway the browser offers them back, to restore or discard; sign-out asks and clears them', async () => {
      const copies = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('bp-console-builder-unsaved:')));
      const header = page.locator('.builder-head p');
      const editHello = async (text: string) => {
        await page.getByRole('button', { name: 'Flow', exact: true }).click();
        await page.getByRole('button', { name: /^hello · Message/ }).click();
        await page.getByRole('form', { name: 'Node hello' }).getByLabel('Text', { exact: true }).fill(text);
        await page.keyboard.press('Tab');
        await header.getByText('Unsaved changes.').waitFor();
      };
      const helloText = () => page.getByRole('form', { name: 'Node hello' }).getByLabel('Text', { exact: true }).inputValue();
      // Leaving without a click (Back, a typed address): nothing can ask, so the copy is what keeps the edits.
      const leaveAndComeBack = async () => {
        await page.evaluate((bot) => (location.hash = `#/bots/${bot}/overview`), stack.seed.botId);
        await page.getByRole('heading', { name: 'Bot builder' }).waitFor({ state: 'detached' });
        await page.goBack();
        await page.getByRole('heading', { name: 'Bot builder' }).waitFor();
      };
      const dialogs: string[] = [];
      const answerNext = (accept: boolean) => page.once('dialog', (d) => (dialogs.push(`${d.type()}: ${d.message()}`), void (accept ? d.accept() : d.dismiss())));

      await editHello('Hello, edited and not saved');
      // The copy is written a moment after the edit.
      await eventually(async () => (await copies()).length === 1 || undefined, 5000, 'the copy in this browser');
      answerNext(false);
      await page.getByRole('link', { name: 'Inbox', exact: true }).click();
      expect(dialogs).toEqual(['confirm: The bot builder has changes that are not saved. Leave anyway?']);
      expect(page.url()).toMatch(/\/builder$/);
      expect(await helloText()).toBe('Hello, edited and not saved');
      // Closing the tab: the browser's own question; staying keeps the page.
      answerNext(false);
      await page.close({ runBeforeUnload: true });
      await eventually(() => dialogs.length === 2 || undefined, 5000, 'the beforeunload dialog');
      expect(dialogs[1]).toMatch(/^beforeunload/);
      expect(page.isClosed()).toBe(false);

      // Left anyway: the edit comes back when the builder opens again, and saving it drops the copy.
      await leaveAndComeBack();
      const offer = page.getByTestId('builder-local-copy');
      await offer.getByText(/were not saved, and this browser kept them/).waitFor();
      expect(await offer.textContent()).not.toContain('The draft has been saved since');
      await accessibleAtBothWidths();
      await screenshots(page, 'builder-unsaved-offered');
      await offer.getByRole('button', { name: 'Restore them' }).click();
      await page.getByText('Unsaved changes restored').waitFor();
      await page.getByRole('button', { name: /^hello · Message/ }).click();
      expect(await helloText()).toBe('Hello, edited and not saved');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByText('Draft saved').waitFor();
      await eventually(async () => (await copies()).length === 0 || undefined, 5000, 'the copy dropped once saved');
      const [saved] = await sql(`SELECT draft FROM bot_definitions WHERE bot_id = $1`, [stack.seed.botId]);
      expect(JSON.stringify(saved!.draft)).toContain('Hello, edited and not saved');
      await page.reload();
      await page.getByRole('heading', { name: 'Bot builder' }).waitFor();
      await header.getByText('The draft is saved.').waitFor();
      expect(await offer.count()).toBe(0);

      // Discarded: the saved draft stays, and so does nothing else.
      await editHello('An edit to throw away');
      await eventually(async () => (await copies()).length === 1 || undefined, 5000, 'the copy in this browser');
      await leaveAndComeBack();
      await offer.getByRole('button', { name: 'Discard them' }).click();
      await page.getByText('Unsaved changes discarded').waitFor();
      expect(await copies()).toEqual([]);
      await page.getByRole('button', { name: /^hello · Message/ }).click();
      expect(await helloText()).toBe('Hello, edited and not saved');

      // A copy made on a draft saved since says so.
      await editHello('Made on the older draft');
      await eventually(async () => (await copies()).length === 1 || undefined, 5000, 'the copy in this browser');
      await sql(`UPDATE bot_definitions SET draft_updated_at = now() + interval '1 second' WHERE bot_id = $1`, [stack.seed.botId]);
      await leaveAndComeBack();
      await offer.getByText(/The draft has been saved since/).waitFor();

      // The copy is this member's. Once the session has ended, another member signing in at this browser
      // is not offered it, and their sign-out neither asks nor drops it; its member gets it back.
      const openBuilder = async () => {
        await page.evaluate((bot) => (location.hash = `#/bots/${bot}/builder`), stack.seed.botId);
        await page.getByRole('heading', { name: 'Bot builder' }).waitFor();
        await header.getByText('The draft is saved.').waitFor();
      };
      const sessionEnds = async () => {
        await page.context().clearCookies();
        await page.reload();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
      };
      const other = await seedBotAdmin(stack.gateway, stack.seed.botId, 'developer');
      await sessionEnds();
      await signIn(page, stack.url, other);
      // Stale copies go when the builder opens: one kept past 30 days, one an older console kept without its member.
      await page.evaluate((bot) => {
        const copy = (savedAt: string) => JSON.stringify({ definition: { journeys: [] }, savedAt, basedOn: null });
        localStorage.setItem(`bp-console-builder-unsaved:someone-long-gone:${bot}`, copy(new Date(Date.now() - 31 * 24 * 3600_000).toISOString()));
        localStorage.setItem(`bp-console-builder-unsaved:${bot}`, copy(new Date().toISOString()));
      }, stack.seed.botId);
      expect(await copies()).toHaveLength(3);
      await openBuilder();
      expect(await offer.count()).toBe(0);
      expect(await copies()).toHaveLength(1);
      // No question is expected; one that comes anyway is accepted and recorded, so the check below names it.
      const unexpected = (d: Dialog) => (dialogs.push(`${d.type()}: ${d.message()}`), void d.accept());
      page.on('dialog', unexpected);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You are signed out.').waitFor();
      page.off('dialog', unexpected);
      expect(dialogs).toHaveLength(2);
      expect(await copies()).toHaveLength(1);
      await signIn(page, stack.url, dev);
      await openBuilder();
      await offer.getByText(/The draft has been saved since/).waitFor();

      // Signing out with a copy kept asks first; going ahead clears it.
      answerNext(false);
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect(dialogs[2]).toMatch(/^confirm: Bot builder changes that were not saved are kept in this browser/);
      expect(await copies()).toHaveLength(1);
      answerNext(true);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('You are signed out.').waitFor();
      expect(await copies()).toEqual([]);
      expect(browser.problems).toEqual([]);
    });

    it('a rename and a Text edit of the same node made in the same instant are both kept, in either order', async () => {
      await signIn(page, stack.url, dev);
      await page.getByRole('link', { name: 'Builder' }).click();
      await page.getByRole('heading', { name: 'Bot builder' }).waitFor();
      const form = (id: string) => page.getByRole('form', { name: `Node ${id}` });
      const kept = async (id: string, text: string, gone: string) => {
        await form(id).waitFor();
        expect(await form(id).getByLabel('Node id').inputValue()).toBe(id);
        expect(await form(id).getByLabel('Text', { exact: true }).inputValue()).toBe(text);
        await page.getByTestId(`flow-node-${id}`).getByText(text).waitFor();
        expect(await page.getByRole('button', { name: new RegExp(`^${gone} · `) }).count()).toBe(0);
      };
      /** Steps run in one task, before the page can render again: each focuses a field (leaving the one before) and types its value, if any. */
      const inOneTask = (steps: Array<[string, string?]>) =>
        page.evaluate((list) => {
          for (const [id, typed] of list) {
            const field = document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement;
            field.focus();
            if (typed === undefined) continue;
            field.value = typed;
            field.dispatchEvent(new Event('input', { bubbles: true }));
          }
        }, steps);
      await page.getByRole('button', { name: /^hello · Message/ }).click();

      // The id filled, then at once the Text (leaving the id renames the node): the Text edit lands on the renamed node.
      await page.getByLabel('Node id').fill('greeting');
      await page.getByLabel('Text', { exact: true }).fill('Renamed, then edited');
      await kept('greeting', 'Renamed, then edited', 'hello');
      // The same in one task: the Text's edit comes from the form as it was drawn before the rename.
      await inOneTask([
        ['node-id', 'welcome'],
        ['node-text', 'Renamed and edited in one go'],
      ]);
      await kept('welcome', 'Renamed and edited in one go', 'greeting');
      // The other order in one task: the rename, made when the id is left, keeps the Text typed just before it.
      await inOneTask([['node-text', 'Edited, then renamed'], ['node-id', 'hi'], ['node-label']]);
      await kept('hi', 'Edited, then renamed', 'welcome');
      // By Enter, then the Text at once.
      await page.getByLabel('Node id').fill('hey');
      await page.getByLabel('Node id').press('Enter');
      await page.getByLabel('Text', { exact: true }).fill('Renamed by Enter, then edited');
      await kept('hey', 'Renamed by Enter, then edited', 'hi');

      // Saved as shown.
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByText(/^Draft saved/).waitFor();
      const [row] = await sql(`SELECT draft FROM bot_definitions WHERE bot_id = $1`, [stack.seed.botId]);
      const main = (row!.draft as { journeys: Array<{ slug: string; nodes: Array<{ id: string; text?: string }> }> }).journeys.find((j) => j.slug === 'main')!;
      expect(main.nodes.filter((n) => ['hello', 'greeting', 'welcome', 'hi', 'hey'].includes(n.id))).toEqual([expect.objectContaining({ id: 'hey', text: 'Renamed by Enter, then edited' })]);
      expect(browser.problems).toEqual([]);
    });

    it('the canvas’s first view shows every node whole, at 390 and 1280 px', async () => {
      // Wider than a phone's canvas once laid out: three branches side by side, five layers deep.
      const message = (id: string) => ({ id, kind: 'message', text: `Branch ${id}` });
      const wide = {
        schemaVersion: 1,
        startJourney: 'main',
        variables: [],
        journeys: [
          {
            slug: 'main',
            start: 'hi',
            nodes: [
              { id: 'hi', kind: 'message', text: 'Hello!' },
              {
                id: 'route',
                kind: 'condition',
                branches: [
                  { id: 'a', when: 'true' },
                  { id: 'b', when: 'true' },
                ],
              },
              message('one'),
              message('two'),
              message('three'),
              { id: 'bye', kind: 'end', text: 'Goodbye!' },
            ],
            edges: [
              { from: 'hi', to: 'route' },
              { from: 'route', to: 'one', on: 'a' },
              { from: 'route', to: 'two', on: 'b' },
              { from: 'route', to: 'three', on: 'else' },
              { from: 'one', to: 'bye' },
              { from: 'two', to: 'bye' },
              { from: 'three', to: 'bye' },
            ],
          },
        ],
      };
      expect((await call(dev.accessToken, 'PUT', '/definition', wide)).body).toMatchObject({ status: 'success' });
      /** The nodes not wholly inside the canvas's drawing area, with both boxes. */
      const outside = () =>
        page.evaluate(() => {
          const canvas = document.querySelector('[data-testid="flow-canvas"] .react-flow')!.getBoundingClientRect();
          return [...document.querySelectorAll<HTMLElement>('.react-flow__node')]
            .map((el) => ({ id: el.dataset.id, box: el.getBoundingClientRect() }))
            .filter(({ box }) => box.left < canvas.left - 0.5 || box.top < canvas.top - 0.5 || box.right > canvas.right + 0.5 || box.bottom > canvas.bottom + 0.5)
            .map(
              ({ id, box }) =>
                `${id}: ${[box.left, box.top, box.right, box.bottom].map(Math.round).join(',')} outside ${[canvas.left, canvas.top, canvas.right, canvas.bottom].map(Math.round).join(',')}`,
            );
        });
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        await page.reload();
        await page.getByRole('heading', { name: 'Bot builder' }).waitFor();
        for (const node of wide.journeys[0]!.nodes) await page.getByTestId(`flow-node-${node.id}`).waitFor();
        // Laid out by elkjs a moment after the first draw, then measured: the view settles on all of them.
        let cut: string[] = [];
        await eventually(async () => (cut = await outside()).length === 0, 10_000, 'every node inside the canvas').catch(() => undefined);
        expect([size.width, cut]).toEqual([size.width, []]);
        await screenshot(page.getByTestId('flow-canvas'), `builder-canvas-first-view-${size.width}.png`);
      }
      expect(browser.problems).toEqual([]);
    });
  });
});
