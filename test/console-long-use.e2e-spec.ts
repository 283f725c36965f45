import { jest } from '@jest/globals';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createBotRuntime } from '../apps/bot-runtime/src/create-bot-runtime.js';
import { BotDefinition } from '@platform/contracts';
import { SeededAdmin, seedBotAdmin, until } from '@platform/testing';
import { ConsoleBrowser, DESKTOP, PHONE, axeViolations, screenshots, signIn } from './console-browser.js';
import { sqlRows } from './push-support.js';
import { useStack } from './e2e-stack.js';
import { SdkBot, seedSdkBot, startSession } from './sdk-support.js';

jest.setTimeout(240_000);

/** The inbox bot: a greeting, a question, then a person (the same shape as test/console-inbox.e2e-spec.ts's). */
const handoffBot = {
  schemaVersion: 1,
  startJourney: 'welcome',
  variables: [{ name: 'need', type: 'string', default: '' }],
  journeys: [
    {
      slug: 'welcome',
      start: 'hello',
      nodes: [
        { id: 'hello', kind: 'message', text: 'Hi, I am the bot.' },
        { id: 'ask', kind: 'question', text: 'What do you need?', answer: { type: 'text' }, variable: 'need' },
        { id: 'agent', kind: 'handoff', text: 'A person will take it from here.' },
        { id: 'bye', kind: 'end', text: 'The bot is back.' },
      ],
      edges: [
        { from: 'hello', to: 'ask' },
        { from: 'ask', to: 'agent' },
        { from: 'agent', to: 'bye' },
      ],
    },
  ],
} as unknown as BotDefinition;

const pad = (n: number) => String(n).padStart(3, '0');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The console used for a while, as a person does (docs/console.md#bot-builder, #inbox): a bot built and edited
 * dozens of times across a reload, published, tried and rolled back; saves offline, back online and on a slow
 * network; a 200+ message conversation read, scrolled, taken over and answered across reloads and a lost
 * connection; axe on both pages after all that. Screenshots `.local/screenshots/console/long-use-*`.
 */
describe('console long use in Chromium: the builder and the inbox over a working session', () => {
  const stack = useStack({ worker: true });
  const browser = new ConsoleBrowser();
  let runtime: NestFastifyApplication;
  stack.defer(() => runtime?.close());
  stack.defer(() => browser.close());
  const sql = (text: string, params: unknown[] = []) => sqlRows(stack.env.DATABASE_URL!, text, params);
  const api = async (token: string, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const res = await fetch(`${stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  let builderBot: SdkBot;
  let inboxBot: SdkBot;
  let builder: { context: BrowserContext; page: Page };
  let inboxPage: { context: BrowserContext; page: Page };
  let developer: SeededAdmin;

  beforeAll(async () => {
    runtime = await createBotRuntime({ ...stack.env, BOT_RUNTIME_HEALTH_PORT: '0' });
    builderBot = await seedSdkBot(stack.gateway);
    inboxBot = await seedSdkBot(stack.gateway);
    const deployed = await fetch(`${stack.url}/v1/bots/${inboxBot.botId}/versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${inboxBot.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ definition: handoffBot }),
    });
    expect(deployed.status).toBe(201);
    await browser.launch();
  });

  // ---- the builder ------------------------------------------------------------------------------------

  /** What each node's edited field should hold: node id → field label → value. */
  const expected: Record<string, Record<string, string>> = {};
  const draft = async () => (await api(developer.accessToken, `/v1/bots/${builderBot.botId}/builder/definition`)).body;
  const draftNode = async (id: string) => (await draft()).draft.journeys[0].nodes.find((n: any) => n.id === id);
  const b = () => builder.page;
  const status = () => b().locator('.builder-status');
  const header = () => b().locator('.builder-head p');
  const nodeForm = (id: string) => b().getByRole('form', { name: `Node ${id}` });
  const select = async (id: string) => {
    await b()
      .getByRole('button', { name: new RegExp(`^${id} · `) })
      .click();
    await nodeForm(id).waitFor();
  };
  /** Changes one field of a node's form as a person does (a field changes the node when left) and sees it on the canvas. */
  const edit = async (id: string, label: string, value: string) => {
    await select(id);
    const field = nodeForm(id).getByLabel(label, { exact: true });
    await field.fill(value);
    await field.press('Tab');
    (expected[id] ??= {})[label] = value;
    const shown = label.startsWith('Label') ? b().getByTestId(`flow-node-${id}`).locator('.flow-id') : b().getByTestId(`flow-node-${id}`).locator('.flow-summary');
    await until(async () => ((await shown.textContent()) === value ? true : undefined), 15_000, `${id}'s ${label} on the canvas`);
  };
  /** Every field edited so far, read back from the node forms on screen. */
  const formsOnScreen = async () => {
    const seen: Record<string, Record<string, string>> = {};
    for (const [id, fields] of Object.entries(expected)) {
      await select(id);
      for (const label of Object.keys(fields)) (seen[id] ??= {})[label] = await nodeForm(id).getByLabel(label, { exact: true }).inputValue();
    }
    return seen;
  };
  const saveDraft = async () => {
    await b().getByRole('button', { name: 'Save draft' }).click();
    await status().getByText('Draft saved').waitFor();
    await header().getByText('The draft is saved.').waitFor();
  };
  /** The text fields the edits cycle through: node, label of the field, the text of the n-th edit. */
  const EDITS: Array<[string, string, (n: number) => string]> = [
    ['hello', 'Text', (n) => `Hello! Edit ${n}.`],
    ['question-1', 'Question', (n) => `What is your name? (edit ${n})`],
    ['message-1', 'Text', (n) => `Nice to meet you, {{variables.name}} (edit ${n}).`],
    ['message-2', 'Label (shown in the trace)', (n) => `Thanks step ${n}`],
    ['message-2', 'Text', (n) => `Thanks for the chat (edit ${n}).`],
    ['bye', 'Text', (n) => `Goodbye! Edit ${n}.`],
  ];
  const editRound = async (from: number, to: number) => {
    for (let n = from; n <= to; n++) {
      const [id, label, text] = EDITS[n % EDITS.length]!;
      await edit(id, label, text(n));
    }
  };

  it('builder, long session: builds five nodes, edits them 40 times with saves and a reload between, publishes, tries, rolls back', async () => {
    developer = await seedBotAdmin(stack.gateway, builderBot.botId, 'developer');
    builder = await browser.newPage(stack.url, DESKTOP);
    b().setDefaultTimeout(30_000);
    await signIn(b(), stack.url, developer);
    await b().goto(`${stack.url}/console/#/bots/${builderBot.botId}/builder`);
    await b().getByRole('heading', { name: 'Bot builder' }).waitFor();
    await b().getByTestId('flow-node-hello').waitFor();
    await header().getByText('No draft saved yet.').waitFor();

    // A variable, a question dragged onto the canvas, two messages from the palette, connected by handle and by form.
    await b().getByRole('button', { name: 'Variables', exact: true }).click();
    await b().getByLabel('Variable name').fill('name');
    await b().getByRole('button', { name: 'Add variable' }).click();
    await b().getByRole('button', { name: 'Flow', exact: true }).click();
    await b()
      .getByRole('button', { name: '+ Question' })
      .dragTo(b().getByTestId('flow-canvas'), { targetPosition: { x: 30, y: 30 } });
    await b().getByTestId('flow-node-question-1').waitFor();
    await nodeForm('question-1').getByLabel('Store the answer in').selectOption('name');
    await b().getByRole('button', { name: '+ Message' }).click();
    await nodeForm('message-1').waitFor();
    await b().getByRole('button', { name: '+ Message' }).click();
    await nodeForm('message-2').waitFor();
    await nodeForm('message-2').getByLabel('Connect next to…').selectOption('bye');
    await select('message-1');
    await nodeForm('message-1').getByLabel('Connect next to…').selectOption('message-2');
    await select('hello');
    await nodeForm('hello').getByLabel('Connect next to…').selectOption('question-1');
    // question-1 → message-1 by dragging its exit handle, in steps as a hand moves (see console-builder.e2e-spec.ts).
    const handle = (node: string, type: 'source' | 'target') => b().locator(`.react-flow__node[data-id="${node}"] .react-flow__handle.${type}${type === 'source' ? '[data-handleid="next"]' : ''}`);
    await handle('question-1', 'source').dragTo(handle('message-1', 'target'), { steps: 10 });
    await b().locator('.react-flow__edge[data-id="question-1:next"][aria-label="Edge from question-1 to message-1"]').waitFor();
    await b().getByTestId('builder-errors').waitFor({ state: 'detached' });
    await saveDraft();
    const built = (await draft()).draft.journeys[0];
    expect(built.nodes.map((n: any) => n.id).sort()).toEqual(['bye', 'hello', 'message-1', 'message-2', 'question-1']);
    expect(built.edges.map((e: any) => `${e.from}>${e.to}`).sort()).toEqual(['hello>question-1', 'message-1>message-2', 'message-2>bye', 'question-1>message-1']);

    // Twenty edits, saved every ten; the header says when something is not saved yet.
    await editRound(1, 10);
    await header().getByText('Unsaved changes.').waitFor();
    await saveDraft();
    await editRound(11, 20);
    await saveDraft();
    expect((await draftNode('bye')).text).toBe(expected.bye!.Text);

    // A reload mid-work: the saved draft is what comes back, every field of it.
    await b().reload();
    await b().getByRole('heading', { name: 'Bot builder' }).waitFor();
    await b().getByTestId('flow-node-message-2').waitFor();
    await header().getByText('The draft is saved.').waitFor();
    expect(await formsOnScreen()).toEqual(expected);
    expect(await b().getByTestId('flow-node-message-2').locator('.flow-id').textContent()).toBe(expected['message-2']!['Label (shown in the trace)']);
    await b().getByRole('button', { name: 'Variables', exact: true }).click();
    expect(await b().getByLabel('Default of name').count()).toBe(1);
    await b().getByRole('button', { name: 'Flow', exact: true }).click();

    // Twenty more after the reload, with saves between.
    await editRound(21, 30);
    await saveDraft();
    await editRound(31, 40);
    await saveDraft();
    const saved = (await draft()).draft.journeys[0];
    for (const [id, fields] of Object.entries(expected)) {
      const node = saved.nodes.find((n: any) => n.id === id);
      for (const [label, value] of Object.entries(fields)) expect([id, label, label.startsWith('Label') ? node.label : (node.text ?? null)]).toEqual([id, label, value]);
    }
    expect(saved.nodes).toHaveLength(5);

    // Publish, then try it in the hosted chat page: the latest texts, the answer in the variable.
    await b().getByLabel('Note').fill('after a long session');
    await b().getByRole('button', { name: 'Publish', exact: true }).click();
    await status().getByText('Published version 1').waitFor();
    await b().getByRole('button', { name: 'Try the draft' }).click();
    const chat = b().frameLocator('[data-testid="try-chat"]');
    await chat.getByText(expected.hello!.Text!).waitFor();
    await chat.getByText(expected['question-1']!.Question!).waitFor();
    await chat.getByRole('textbox', { name: 'Message' }).fill('Ada');
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter');
    await chat.getByText(expected['message-1']!.Text!.replace('{{variables.name}}', 'Ada')).waitFor();
    await chat.getByText(expected.bye!.Text!).waitFor();
    await b()
      .getByTestId('try-trace')
      .getByText(/main\/bye/)
      .waitFor();

    // One more change, version 2, and back to version 1.
    await edit('bye', 'Text', 'Goodbye from version 2.');
    await b().getByRole('button', { name: 'Publish', exact: true }).click();
    await status().getByText('Published version 2').waitFor();
    await b().getByRole('button', { name: 'Versions', exact: true }).click();
    await b().getByTestId('version-2').getByText('What changed from version 1').click();
    await b().getByTestId('version-2').getByText('journey main: node bye changed: text').waitFor();
    await b().getByRole('button', { name: 'Roll back to version 1' }).click();
    await status().getByText('Rolled back: new conversations start on version 1').waitFor();
    await b().getByTestId('version-1').getByText('published', { exact: true }).waitFor();
    const versions = await api(developer.accessToken, `/v1/bots/${builderBot.botId}/builder/versions`);
    expect(versions.body.versions.map((v: any) => [v.version, v.published])).toEqual([
      [2, false],
      [1, true],
    ]);
    expect((await draft()).publishedVersion).toBe(1);
    await screenshots(b(), 'long-use-builder-versions');
    await b().getByRole('button', { name: 'Flow', exact: true }).click();
  });

  it('builder offline and back, then on a slow network: the failed save is said, nothing is lost or doubled; progress shows and the page stays usable', async () => {
    const page = b();
    const before = (await draft()).draft;
    // Offline: an edit, a save that cannot reach the platform, said in words; the work stays on screen.
    await edit('message-2', 'Text', 'Written while offline.');
    await builder.context.setOffline(true);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await status()
      .getByText(/could not be reached/)
      .waitFor();
    expect(await status().locator('.notice').getAttribute('class')).toContain('error');
    await header().getByText('Unsaved changes.').waitFor();
    expect(await page.getByRole('button', { name: 'Save draft' }).isEnabled()).toBe(true);
    // More work while offline: a node renamed by typing its new id (its edges follow) and a label. An id
    // another node has is refused in words; the rename happens as the field is left, and the focus goes on.
    await select('message-2');
    await nodeForm('message-2').getByLabel('Node id').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('hello');
    await nodeForm('message-2').getByText('Node hello is already in journey main: pick another id').waitFor();
    expect(await nodeForm('message-2').getByLabel('Node id').getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('thanks');
    await page.keyboard.press('Tab');
    await nodeForm('thanks').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'node-label', undefined, { timeout: 10_000 });
    expect(await page.getByRole('button', { name: /^(message-2|thanks|hello) · / }).allTextContents()).toEqual(['hello · Message', 'thanks · Message']);
    expected.thanks = { ...expected['message-2'], Text: 'Written while offline.' };
    delete expected['message-2'];
    await edit('hello', 'Label (shown in the trace)', 'Greeting (offline)');
    expect((await draft()).draft).toEqual(before); // nothing reached the server
    expect(await nodeForm('hello').getByLabel('Label (shown in the trace)', { exact: true }).inputValue()).toBe('Greeting (offline)');

    // Back online: one save keeps all of it, once.
    await builder.context.setOffline(false);
    await saveDraft();
    const back = (await draft()).draft.journeys[0];
    expect(back.nodes.map((n: any) => n.id).sort()).toEqual(['bye', 'hello', 'message-1', 'question-1', 'thanks']);
    expect(back.edges.map((e: any) => `${e.from}>${e.to}`).sort()).toEqual(['hello>question-1', 'message-1>thanks', 'question-1>message-1', 'thanks>bye']);
    expect(back.nodes.find((n: any) => n.id === 'thanks').text).toBe('Written while offline.');
    expect(back.nodes.find((n: any) => n.id === 'hello').label).toBe('Greeting (offline)');
    expect(await formsOnScreen()).toEqual(expected);

    // Slow network: every call of the bot's API answers 1.5 s late.
    let delayed = 0;
    const slow = async (route: Route) => {
      delayed++;
      await sleep(1500);
      await route.continue().catch(() => undefined);
    };
    await page.route('**/v1/bots/**', slow);
    try {
      await edit('hello', 'Text', 'Saved on a slow line.');
      await page.getByRole('button', { name: 'Save draft' }).click();
      // Progress: the button is busy (and cannot be pressed twice) while the save is on its way.
      await page.locator('button[aria-busy="true"]', { hasText: 'Save draft' }).waitFor();
      expect(await page.getByRole('button', { name: 'Save draft' }).isDisabled()).toBe(true);
      // Usable meanwhile: another node is edited; it is not part of the save on its way.
      await edit('message-1', 'Text', 'Edited while a save was on its way, {{variables.name}}.');
      await status().getByText('Draft saved').waitFor();
      await header().getByText('Unsaved changes.').waitFor();
      expect((await draftNode('hello')).text).toBe('Saved on a slow line.');
      expect((await draftNode('message-1')).text).not.toBe(expected['message-1']!.Text);
      await saveDraft();
      expect((await draftNode('message-1')).text).toBe(expected['message-1']!.Text);
      // A reload on the slow line: the page says it is opening the builder, then shows the saved draft.
      await page.reload();
      await page.getByText('Opening the builder…').waitFor();
      await page.getByRole('heading', { name: 'Bot builder' }).waitFor();
      await header().getByText('The draft is saved.').waitFor();
      expect(await formsOnScreen()).toEqual(expected);
    } finally {
      await page.unroute('**/v1/bots/**', slow);
    }
    expect(delayed).toBeGreaterThan(3);
    const last = (await draft()).draft.journeys[0];
    expect(last.nodes.map((n: any) => n.id).sort()).toEqual(['bye', 'hello', 'message-1', 'question-1', 'thanks']);
    await screenshots(page, 'long-use-builder-after-offline');
  });

  // ---- the inbox --------------------------------------------------------------------------------------

  let conversationId: string;
  /** Every message of the conversation, oldest first, as the test sent them. */
  const sent: string[] = ['Hi, I am the bot.', 'What do you need?', 'help with a long story', 'A person will take it from here.'];
  let agent: SeededAdmin;
  const ip = () => inboxPage.page;
  const inboxApi = (token: string, path: string, body?: unknown, method?: string) => api(token, `/v1/bots/${inboxBot.botId}/inbox${path}`, body, method);
  /** The transcript as the page shows it: each message's text, in order. */
  const transcriptOnScreen = () =>
    ip()
      .getByTestId('transcript')
      .locator('li')
      .evaluateAll((lis) => lis.map((li) => li.lastChild?.textContent ?? ''));
  const allMessages = async () => (await sql(`SELECT content->>'text' AS text FROM conversation_messages WHERE conversation_id = $1 ORDER BY seq`, [conversationId])).map((r) => r.text as string);
  /** Waits until the page's transcript is the newest 200 of what was sent, in order. */
  const transcriptIsNewest = async () => {
    const want = sent.slice(-200);
    await until(async () => (JSON.stringify(await transcriptOnScreen()) === JSON.stringify(want) ? true : undefined), 30_000, 'the transcript as sent').catch(async (err) => {
      const got = await transcriptOnScreen();
      throw new Error(`${(err as Error).message}: ${got.length} shown, first ${JSON.stringify(got.slice(0, 2))}, last ${JSON.stringify(got.slice(-3))}`);
    });
  };
  const messageBoxEmptied = (what: string) => until(async () => ((await ip().getByLabel('Message', { exact: true }).inputValue()) === '' ? true : undefined), 30_000, what);
  const reply = async (text: string) => {
    await ip().getByLabel('Message', { exact: true }).fill(text);
    await ip().getByRole('button', { name: 'Send reply' }).click();
    sent.push(text);
  };

  it('inbox, long conversation: 200+ messages read, scrolled, taken over, answered; a reload keeps order; a reply offline is said not sent and sent once back online', async () => {
    // A web-chat user reaches the handoff; a colleague takes over and the two exchange 105 messages each (real APIs).
    const colleague = await seedBotAdmin(stack.gateway, inboxBot.botId, 'developer');
    const chatToken = 'long_use_inbox_user';
    const { sessionId } = await startSession(stack.url, inboxBot.botId, chatToken);
    const userSays = async (text: string) => {
      const res = await fetch(`${stack.url}/v1/bots/${inboxBot.botId}/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${chatToken}` },
        body: JSON.stringify({ text }),
      });
      expect(res.status).toBe(202);
      return (await res.json()) as { conversationId: string };
    };
    const listed = async (filter: string) => (await inboxApi(colleague.accessToken, `/conversations?filter=${filter}`)).body.conversations as any[];
    await until(async () => ((await listed('all')).some((c) => c.node === 'ask') ? true : undefined), 30_000, 'the question');
    conversationId = (await userSays('help with a long story')).conversationId;
    await until(async () => ((await listed('waiting')).some((c) => c.id === conversationId) ? true : undefined), 30_000, 'the handoff');
    expect((await inboxApi(colleague.accessToken, `/conversations/${conversationId}/take-over`, {})).status).toBe(200);
    for (let n = 1; n <= 105; n++) {
      await userSays(`User line ${pad(n)}`);
      sent.push(`User line ${pad(n)}`);
      expect((await inboxApi(colleague.accessToken, `/conversations/${conversationId}/messages`, { text: `Colleague line ${pad(n)}` })).status).toBe(202);
      sent.push(`Colleague line ${pad(n)}`);
    }
    expect(await allMessages()).toEqual(sent);

    // The agent opens it from the inbox: the newest 200, oldest first, each once.
    agent = await seedBotAdmin(stack.gateway, inboxBot.botId, 'developer');
    inboxPage = await browser.newPage(stack.url, DESKTOP);
    ip().setDefaultTimeout(30_000);
    await signIn(ip(), stack.url, agent);
    await ip().goto(`${stack.url}/console/#/bots/${inboxBot.botId}/inbox`);
    await ip().getByRole('button', { name: /^All/ }).click();
    const row = ip().getByTestId('inbox-list').locator('tr', { hasText: 'Colleague line 105' });
    await row.getByText(colleague.email).waitFor();
    await row.getByRole('link', { name: /^Web user / }).click();
    await ip().getByTestId('transcript').getByText('Colleague line 105').waitFor();
    await transcriptIsNewest();

    // Scrolls down through it by wheel to the reply form, and back up. Steps of a quarter of the window: a
    // longer one could carry the last message past the top in the step that brings the whole (tall) form in.
    await ip().mouse.move(DESKTOP.width / 2, DESKTOP.height / 2);
    const bottomOf = (selector: string) => ip().evaluate((s) => document.querySelector(s)!.getBoundingClientRect().bottom, selector);
    await until(
      async () => {
        if ((await bottomOf('form[aria-label="Reply"]')) <= (await ip().evaluate(() => window.innerHeight))) return true;
        await ip().mouse.wheel(0, DESKTOP.height / 4);
        return undefined;
      },
      60_000,
      'the reply form scrolled into view',
    );
    const lastShown = ip().getByTestId('transcript').locator('li').last();
    // The last message is on screen above the form (the part of it next to the form, at least).
    expect(await lastShown.evaluate((li) => li.getBoundingClientRect().bottom > 0)).toBe(true);
    await until(
      async () => {
        if ((await ip().evaluate(() => window.scrollY)) === 0) return true;
        await ip().mouse.wheel(0, -900);
        return undefined;
      },
      60_000,
      'the top of the page',
    );

    // Takes it over from the colleague and answers several times; the user writes once between.
    await ip().getByRole('button', { name: 'Take over' }).click();
    await ip().getByTestId('conversation-state').getByText(agent.email).waitFor();
    await ip().getByRole('button', { name: 'Take over' }).waitFor({ state: 'detached' });
    for (let n = 1; n <= 5; n++) {
      await reply(`Agent reply ${n} of the long session`);
      await until(async () => ((await transcriptOnScreen()).at(-1) === sent.at(-1) ? true : undefined), 30_000, `reply ${n} shown`);
      // The box empties once the send is answered (a poll may show the reply a moment before).
      await messageBoxEmptied(`the box after reply ${n}`);
      if (n === 3) {
        await userSays('User line 106');
        sent.push('User line 106');
      }
    }
    await transcriptIsNewest();
    expect(await allMessages()).toEqual(sent);

    // A reload: the same 200, in order, none twice; still mine.
    await ip().reload();
    await ip().getByTestId('transcript').getByText(sent.at(-1)!).waitFor();
    await transcriptIsNewest();
    const shown = await transcriptOnScreen();
    expect(new Set(shown).size).toBe(shown.length);
    await ip().getByTestId('conversation-state').getByText(agent.email).waitFor();

    // Offline: the reply is said not sent and stays in the box; no poll or error breaks the page.
    await ip().getByLabel('Message', { exact: true }).fill('Sent after the connection came back');
    await inboxPage.context.setOffline(true);
    await ip().getByRole('button', { name: 'Send reply' }).click();
    const replyForm = ip().getByRole('form', { name: 'Reply' });
    await replyForm.getByRole('alert').getByText('The platform could not be reached.').waitFor();
    expect(await ip().getByLabel('Message', { exact: true }).inputValue()).toBe('Sent after the connection came back');
    await sleep(3500); // a poll of the page falls while offline
    expect(await transcriptOnScreen()).toEqual(sent.slice(-200));
    expect(await allMessages()).toEqual(sent);

    // Back online: sent once, shown once, the notice gone.
    await inboxPage.context.setOffline(false);
    await ip().getByRole('button', { name: 'Send reply' }).click();
    sent.push('Sent after the connection came back');
    await transcriptIsNewest();
    await replyForm.getByRole('alert').waitFor({ state: 'detached' });
    await messageBoxEmptied('the box after the resend');
    await sleep(3500); // the next poll brings nothing twice
    await transcriptIsNewest();
    expect(await allMessages()).toEqual(sent);
    const view = await inboxApi(agent.accessToken, `/conversations/${conversationId}`);
    expect(view.body.messages.map((m: any) => m.content.text)).toEqual(sent.slice(-200));
    expect(view.body.conversation.assignee).toEqual({ userId: agent.userId, email: agent.email });

    // The answer lost on its way back, the reply stored: the page says the platform could not be reached and
    // keeps the text; sent again with its Idempotency-Key, it is the same reply, not a second one.
    const replies = `**/v1/bots/*/inbox/conversations/${conversationId}/messages`;
    let lose = true;
    await ip().route(replies, async (route) => {
      if (route.request().method() !== 'POST' || !lose) return route.fallback();
      lose = false;
      await route.fetch(); // the gateway gets it and answers; the page never hears
      await route.abort('connectionreset');
    });
    await ip().getByLabel('Message', { exact: true }).fill('Its answer was lost on the way');
    await ip().getByRole('button', { name: 'Send reply' }).click();
    await replyForm.getByRole('alert').getByText('The platform could not be reached.').waitFor();
    expect(lose).toBe(false);
    sent.push('Its answer was lost on the way');
    await until(async () => ((await allMessages()).at(-1) === sent.at(-1) ? true : undefined), 30_000, 'the lost-answer reply stored');
    await ip().getByRole('button', { name: 'Send reply' }).click();
    await replyForm.getByRole('alert').waitFor({ state: 'detached' });
    await messageBoxEmptied('the box after the lost answer');
    await ip().unroute(replies);
    await transcriptIsNewest();
    expect(await allMessages()).toEqual(sent);

    await ip().reload();
    await ip().getByTestId('transcript').getByText(sent.at(-1)!).waitFor();
    await transcriptIsNewest();
    expect(sent.length).toBeGreaterThan(220);
  });

  it('after the long use: no serious or critical axe violation on the builder and the inbox at 390 and 1280 px; no script error', async () => {
    const checked: Array<[Page, string]> = [
      [b(), 'long-use-builder'],
      [ip(), 'long-use-inbox-conversation'],
    ];
    for (const [page, name] of checked) {
      for (const size of [PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        expect([name, size.width, await axeViolations(page)]).toEqual([name, size.width, []]);
      }
      await screenshots(page, name);
    }
    // The inbox list after the long use, too.
    await ip().getByRole('link', { name: '← Inbox' }).click();
    await ip()
      .getByRole('button', { name: /^Assigned to me/ })
      .click();
    await ip().getByTestId('inbox-list').getByText('Its answer was lost on the way').waitFor();
    for (const size of [PHONE, DESKTOP]) {
      await ip().setViewportSize(size);
      expect(['inbox list', size.width, await axeViolations(ip())]).toEqual(['inbox list', size.width, []]);
    }
    await screenshots(ip(), 'long-use-inbox-list');
    expect(browser.problems).toEqual([]);
    await builder.context.close();
    await inboxPage.context.close();
  });
});
