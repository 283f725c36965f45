// Helpers of the test/hosted-bots-*.e2e-spec.ts files: bot definitions and the bot-turn queue as the gateway left it.
import { INestApplicationContext } from '@nestjs/common';
import { BotTurnQueue } from '@platform/queue';

/** A small valid definition: a greeting and the end. */
export function greetingBot(text = 'Hi {{variables.name}}') {
  return {
    schemaVersion: 1,
    startJourney: 'welcome',
    variables: [{ name: 'name', type: 'string', default: 'there' }],
    journeys: [
      {
        slug: 'welcome',
        start: 'hello',
        nodes: [
          { id: 'hello', kind: 'message', text },
          { id: 'bye', kind: 'end' },
        ],
        edges: [{ from: 'hello', to: 'bye' }],
      },
    ],
  };
}

/**
 * Valid, with one warning (docs/bots.md): its question has no `invalid` edge, so once its retries are used up
 * the user gets the apology and the journey ends.
 */
export function askingBot() {
  return {
    schemaVersion: 1,
    startJourney: 'welcome',
    variables: [{ name: 'name', type: 'string', default: 'there' }],
    journeys: [
      {
        slug: 'welcome',
        start: 'ask',
        nodes: [
          { id: 'ask', kind: 'question', text: 'Your name?', answer: { type: 'text' }, variable: 'name' },
          { id: 'bye', kind: 'end', text: 'Bye {{variables.name}}' },
        ],
        edges: [{ from: 'ask', to: 'bye' }],
      },
    ],
  };
}

/** Invalid three times: a template reads an undeclared variable, an edge leads nowhere, so the end node cannot be reached. */
export function brokenBot() {
  const bot = greetingBot('Hi {{variables.nobody}}');
  bot.journeys[0].edges = [{ from: 'hello', to: 'nowhere' }];
  return bot;
}

/** The bot-turn jobs queued for a conversation (nothing consumes them in these tests). */
export async function turnJobs(app: INestApplicationContext, conversationId: string) {
  const queue = app.get(BotTurnQueue, { strict: false });
  const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
  return jobs.filter((j) => j.data.conversationId === conversationId).map((j) => ({ id: j.id, name: j.name, data: j.data }));
}
