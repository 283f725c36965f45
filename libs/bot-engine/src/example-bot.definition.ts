import type { BotDefinition } from '@platform/contracts';

/**
 * The function node of docs/sdk.md ("A function node"), exactly as written there: the payload parsed into the
 * object variable `profile`. example-bot.definition.spec.ts checks it still matches the docs.
 */
export const SDK_FUNCTION_NODE_CODE = `import { parseBotPayload } from '@bot-platform/sdk-core';

// A function node: store the result in a variable of type Object (here \`profile\`), then read
// variables.profile.JourneySlug or variables.profile.userName in later nodes.
export default function main(payload) {
  try {
    return parseBotPayload(payload); // a string is parsed, an object passes through
  } catch (error) {
    // InvalidPayloadError: reason 'invalidJson' or 'notObject'
    return {};
  }
}
`;

/**
 * A complete hosted bot that uses every node kind (the demo bot and docs/bots.md reuse it). Journey `main`: the
 * payload is parsed into `profile`, the user is greeted by name, asked their age (re-asked when it is not a
 * number), branched on it and offered a menu: the shop (a goto), a joke (an http call) or a person (a handoff).
 * Journey `shop` shows a carousel (its buttons answer the next question), asks a size and confirms with an image.
 */
export const exampleBotDefinition: BotDefinition = {
  schemaVersion: 1,
  startJourney: 'main',
  variables: [
    { name: 'profile', type: 'object' },
    { name: 'age', type: 'number' },
    { name: 'adult', type: 'boolean', default: false },
    { name: 'visits', type: 'number', default: 0 },
    { name: 'choice', type: 'string' },
    { name: 'item', type: 'string' },
    { name: 'size', type: 'string' },
    { name: 'joke', type: 'string', default: 'No joke today.' },
    { name: 'jokeStatus', type: 'number' },
  ],
  settings: { functionTimeoutMs: 50, functionMemoryMb: 16, apology: 'Sorry, something went wrong. Please try again later.' },
  journeys: [
    {
      slug: 'main',
      name: 'Welcome',
      start: 'parse-payload',
      nodes: [
        { id: 'parse-payload', kind: 'function', label: 'Parse the payload', code: SDK_FUNCTION_NODE_CODE, variable: 'profile' },
        { id: 'greet', kind: 'message', text: 'Hi {{variables.profile.userName}}! Welcome.' },
        {
          id: 'ask-age',
          kind: 'question',
          text: 'How old are you?',
          answer: { type: 'number', min: 1, max: 130 },
          variable: 'age',
          retryPrompt: 'Please answer with a number, like 30.',
          maxRetries: 2,
        },
        { id: 'is-adult', kind: 'condition', branches: [{ id: 'adult', when: 'variables.age >= 18' }] },
        {
          id: 'remember',
          kind: 'set',
          assignments: [
            { variable: 'adult', value: 'true' },
            { variable: 'visits', value: 'variables.visits + 1' },
          ],
        },
        {
          id: 'menu',
          kind: 'question',
          text: 'What would you like, {{variables.profile.userName}}?',
          answer: {
            type: 'choice',
            choices: [
              { title: 'Shop', payload: 'shop' },
              { title: 'A joke', payload: 'joke' },
              { title: 'Talk to a person', payload: 'agent' },
            ],
          },
          variable: 'choice',
        },
        {
          id: 'route',
          kind: 'condition',
          branches: [
            { id: 'shop', when: 'variables.choice == "shop"' },
            { id: 'agent', when: 'variables.choice == "agent"' },
          ],
        },
        { id: 'to-shop', kind: 'goto', journey: 'shop' },
        {
          id: 'fetch-joke',
          kind: 'http',
          method: 'GET',
          url: 'https://jokes.example.com/v1/random?lang={{variables.profile.lang}}',
          headers: { authorization: 'Bearer {{secrets.JOKES_TOKEN}}' },
          timeoutMs: 3000,
          map: [
            { variable: 'jokeStatus', path: 'status' },
            { variable: 'joke', path: 'body.joke' },
          ],
        },
        { id: 'tell-joke', kind: 'message', text: '{{variables.joke}}', quickReplies: [{ title: 'Shop', payload: 'journey:shop' }] },
        { id: 'no-joke', kind: 'message', text: 'The joke service is asleep (status {{variables.jokeStatus}}).' },
        { id: 'minor', kind: 'message', text: 'Sorry, this shop is for adults only.' },
        { id: 'agent', kind: 'handoff', text: 'Connecting you to a person…', reason: 'The user asked for a person' },
        { id: 'bye', kind: 'end', text: 'Thanks for chatting. Bye!' },
      ],
      edges: [
        { from: 'parse-payload', to: 'greet' },
        { from: 'parse-payload', to: 'greet', on: 'error' },
        { from: 'greet', to: 'ask-age' },
        { from: 'ask-age', to: 'is-adult' },
        { from: 'ask-age', to: 'bye', on: 'invalid' },
        { from: 'is-adult', to: 'remember', on: 'adult' },
        { from: 'is-adult', to: 'minor', on: 'else' },
        { from: 'remember', to: 'menu' },
        { from: 'menu', to: 'route' },
        { from: 'route', to: 'to-shop', on: 'shop' },
        { from: 'route', to: 'agent', on: 'agent' },
        { from: 'route', to: 'fetch-joke', on: 'else' },
        { from: 'fetch-joke', to: 'tell-joke' },
        { from: 'fetch-joke', to: 'no-joke', on: 'error' },
        { from: 'tell-joke', to: 'bye' },
        { from: 'no-joke', to: 'bye' },
        { from: 'minor', to: 'bye' },
        { from: 'agent', to: 'bye' },
      ],
    },
    {
      slug: 'shop',
      name: 'Shop',
      start: 'catalogue',
      nodes: [
        {
          id: 'catalogue',
          kind: 'message',
          cards: [
            {
              title: 'T-shirt',
              subtitle: 'Organic cotton, 25 EUR',
              imageUrl: 'https://shop.example.com/img/t-shirt.png',
              buttons: [{ title: 'Buy the T-shirt', payload: 'tshirt' }],
            },
            {
              title: 'Hoodie',
              subtitle: 'Warm, 49 EUR',
              imageUrl: 'https://shop.example.com/img/hoodie.png',
              buttons: [
                { title: 'Buy the hoodie', payload: 'hoodie' },
                { title: 'Main menu', payload: 'journey:main' },
              ],
            },
          ],
        },
        {
          id: 'ask-item',
          kind: 'question',
          text: 'Tap Buy on the one you like.',
          answer: {
            type: 'choice',
            choices: [
              { title: 'T-shirt', payload: 'tshirt' },
              { title: 'Hoodie', payload: 'hoodie' },
            ],
          },
          variable: 'item',
        },
        {
          id: 'ask-size',
          kind: 'question',
          text: 'Which size?',
          answer: {
            type: 'choice',
            choices: [
              { title: 'S', payload: 'S' },
              { title: 'M', payload: 'M' },
              { title: 'L', payload: 'L' },
            ],
          },
          variable: 'size',
          retryPrompt: 'Please pick S, M or L.',
        },
        { id: 'confirm', kind: 'message', image: { url: 'https://shop.example.com/img/size-{{variables.size}}.png', caption: 'Your {{variables.item}} in size {{variables.size}} is on its way!' } },
        { id: 'done', kind: 'end', text: 'Thank you for your order.' },
      ],
      edges: [
        { from: 'catalogue', to: 'ask-item' },
        { from: 'ask-item', to: 'ask-size' },
        { from: 'ask-size', to: 'confirm' },
        { from: 'confirm', to: 'done' },
      ],
    },
  ],
};
