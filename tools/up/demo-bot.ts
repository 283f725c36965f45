import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BotDefinition } from '@platform/contracts';

/**
 * The function node of docs/sdk.md ("Bot side: sending events and reading the payload"), read from the
 * doc itself so that the demo runs the snippet exactly as written there (a doc edit that breaks it breaks
 * the demo and its tests, not just the reader).
 */
export function sdkDocPayloadFunction(root = process.cwd()): string {
  const doc = readFileSync(join(root, 'docs', 'sdk.md'), 'utf8');
  const block = /Parse it in a function node[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/sdk.md has no function-node snippet after "Parse it in a function node"');
  return block;
}

/** Where `npm run up` runs the offers API (DEMO_API_PORT): an http node's URL names its host as written, never from a variable. */
export const DEMO_OFFERS_API_URL = 'http://127.0.0.1:3300';

const picture = (seed: string) => `https://picsum.photos/seed/${seed}/600/400`;

/**
 * The hosted demo bot of `npm run up`: three journeys that use every node kind.
 *
 * - `welcome` (the start journey): the sdk.md function node parses the web session's payload into
 *   `profile`; a set node picks the name; a greeting with quick replies; a choice question (re-asked on
 *   a wrong answer); a condition routes to the offers journey (goto), a picture, or a person (handoff,
 *   then the bot takes over again when the agent hands back).
 * - `offers`: an http node calls the local offers API (its token is the bot's secret),
 *   a carousel of its answer, a function node that tells the app (app.sendEvent) and logs, an e-mail
 *   question, then the feedback journey. A card's button `journey:feedback` starts that journey from
 *   anywhere, as a triggered WhatsApp carousel card's quick reply can.
 * - `feedback`: a number question (1-5, re-asked), a condition and the end.
 *
 * The push tap / payload `JourneySlug: "offers"` opens the offers journey directly.
 */
export function demoBotDefinition(offersApiUrl = DEMO_OFFERS_API_URL, root = process.cwd()): BotDefinition {
  return {
    schemaVersion: 1,
    startJourney: 'welcome',
    settings: { functionTimeoutMs: 50, apology: 'Sorry, something went wrong in the demo bot. Write anything to start again.' },
    variables: [
      { name: 'profile', type: 'object', default: {} },
      { name: 'name', type: 'string', default: 'there' },
      { name: 'topic', type: 'string', default: '' },
      { name: 'offers', type: 'array', default: [] },
      { name: 'headline', type: 'string', default: '' },
      { name: 'email', type: 'string', default: '' },
      { name: 'rating', type: 'number', default: 0 },
      { name: 'notified', type: 'boolean', default: false },
    ],
    journeys: [
      {
        slug: 'welcome',
        name: 'Welcome',
        start: 'read-payload',
        nodes: [
          { id: 'read-payload', kind: 'function', label: 'Parse the payload (docs/sdk.md)', code: sdkDocPayloadFunction(root), variable: 'profile' },
          { id: 'pick-name', kind: 'set', assignments: [{ variable: 'name', value: "variables.profile.userName || 'there'" }] },
          {
            id: 'greet',
            kind: 'message',
            text: 'Hi {{variables.name}}! I am the demo bot, hosted on the platform: a journey of nodes, with no server of yours behind me.',
          },
          {
            id: 'menu',
            kind: 'question',
            text: 'What would you like to try?',
            answer: {
              type: 'choice',
              choices: [
                { title: 'See offers', payload: 'offers' },
                { title: 'A picture', payload: 'picture' },
                { title: 'Talk to a person', payload: 'agent' },
              ],
            },
            variable: 'topic',
            retryPrompt: 'Please tap one of the buttons.',
            maxRetries: 2,
          },
          {
            id: 'route',
            kind: 'condition',
            branches: [
              { id: 'offers', when: "variables.topic == 'offers'" },
              { id: 'picture', when: "variables.topic == 'picture'" },
            ],
          },
          { id: 'to-offers', kind: 'goto', journey: 'offers' },
          { id: 'picture', kind: 'message', image: { url: picture('hosted-demo'), caption: 'A picture for {{variables.name}}, from the hosted demo bot' } },
          { id: 'after-picture', kind: 'goto', journey: 'feedback' },
          { id: 'agent', kind: 'handoff', text: 'I am handing you to a person. An agent will answer here.', reason: 'asked for a person' },
          { id: 'back', kind: 'message', text: 'Welcome back, {{variables.name}}: the bot takes over again.' },
          { id: 'after-agent', kind: 'goto', journey: 'feedback' },
          { id: 'menu-unclear', kind: 'message', text: 'I still could not tell which one you meant, so here is a picture.' },
        ],
        edges: [
          { from: 'read-payload', to: 'pick-name' },
          { from: 'pick-name', to: 'greet' },
          { from: 'greet', to: 'menu' },
          { from: 'menu', to: 'route' },
          // Retries used up leave by `invalid`; without that edge the user would get the apology, as if the bot had failed.
          { from: 'menu', to: 'menu-unclear', on: 'invalid' },
          { from: 'menu-unclear', to: 'picture' },
          { from: 'route', to: 'to-offers', on: 'offers' },
          { from: 'route', to: 'picture', on: 'picture' },
          { from: 'route', to: 'agent', on: 'else' },
          { from: 'picture', to: 'after-picture' },
          { from: 'agent', to: 'back' },
          { from: 'back', to: 'after-agent' },
        ],
      },
      {
        slug: 'offers',
        name: 'Offers',
        start: 'fetch',
        nodes: [
          {
            id: 'fetch',
            kind: 'http',
            label: 'The local offers API',
            method: 'GET',
            url: `${offersApiUrl}/offers`,
            headers: { authorization: 'Bearer {{secrets.DEMO_API_TOKEN}}' },
            timeoutMs: 3000,
            map: [
              { variable: 'offers', path: 'body.offers' },
              { variable: 'headline', path: 'body.headline' },
            ],
          },
          { id: 'offline', kind: 'message', text: 'The offers service is not answering right now. Let us talk about the demo instead.' },
          { id: 'intro', kind: 'message', text: '{{variables.headline}}' },
          {
            id: 'carousel',
            kind: 'message',
            cards: [0, 1, 2].map((i) => ({
              title: `{{variables.offers[${i}].title}}`,
              subtitle: `{{variables.offers[${i}].price}}`,
              imageUrl: picture(`offer${i + 1}`),
              buttons: [
                { title: 'I like it', payload: `like-${i + 1}` },
                { title: 'Rate the demo', payload: 'journey:feedback' },
              ],
            })),
          },
          {
            id: 'tell-app',
            kind: 'function',
            label: 'Tell the app (app.sendEvent)',
            code: [
              'app.log(`showed ${variables.offers.length} offers`);',
              'app.sendEvent({',
              "  code: 'sendReactNativeEvent',",
              "  data: { code: 'offers.shown', data: JSON.stringify({ count: variables.offers.length }) },",
              '});',
              'return true;',
            ].join('\n'),
            variable: 'notified',
          },
          {
            id: 'ask-email',
            kind: 'question',
            text: 'Shall I send these offers to you? Type your e-mail address.',
            answer: { type: 'email' },
            variable: 'email',
            retryPrompt: 'That does not look like an e-mail address (name@example.com).',
            maxRetries: 1,
          },
          { id: 'sent', kind: 'message', text: 'Done: they are on their way to {{variables.email}} (not really, this is a demo).' },
          { id: 'no-email', kind: 'message', text: 'No problem, no e-mail then.' },
          { id: 'to-feedback', kind: 'goto', journey: 'feedback' },
        ],
        edges: [
          { from: 'fetch', to: 'intro' },
          { from: 'fetch', to: 'offline', on: 'error' },
          { from: 'offline', to: 'to-feedback' },
          { from: 'intro', to: 'carousel' },
          { from: 'carousel', to: 'tell-app' },
          { from: 'tell-app', to: 'ask-email' },
          { from: 'tell-app', to: 'ask-email', on: 'error' },
          { from: 'ask-email', to: 'sent' },
          { from: 'ask-email', to: 'no-email', on: 'invalid' },
          { from: 'sent', to: 'to-feedback' },
          { from: 'no-email', to: 'to-feedback' },
        ],
      },
      {
        slug: 'feedback',
        name: 'Feedback',
        start: 'rate',
        nodes: [
          {
            id: 'rate',
            kind: 'question',
            text: 'How do you like this demo, from 1 to 5?',
            quickReplies: [
              { title: '5', payload: '5' },
              { title: '3', payload: '3' },
              { title: '1', payload: '1' },
            ],
            answer: { type: 'number', min: 1, max: 5 },
            variable: 'rating',
            retryPrompt: 'A number from 1 to 5, please.',
          },
          { id: 'happy', kind: 'condition', branches: [{ id: 'good', when: 'variables.rating >= 4' }] },
          // No {{variables.name}} here: a `journey:feedback` button starts this journey afresh, with the variables at their defaults.
          { id: 'glad', kind: 'end', text: 'Glad you like it! Write anything to start again.' },
          { id: 'sorry', kind: 'end', text: 'Thanks for telling me. Write anything to start again.' },
          { id: 'no-rating', kind: 'end', text: 'No rating then, that is fine. Write anything to start again.' },
        ],
        edges: [
          { from: 'rate', to: 'happy' },
          { from: 'rate', to: 'no-rating', on: 'invalid' },
          { from: 'happy', to: 'glad', on: 'good' },
          { from: 'happy', to: 'sorry', on: 'else' },
        ],
      },
    ],
  };
}
