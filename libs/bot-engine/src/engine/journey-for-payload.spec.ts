import { exampleBotDefinition } from '../example-bot.definition.js';
import { journeyForPayload } from './journey-for-payload.js';

describe('journeyForPayload', () => {
  it.each([
    ['journey:shop', 'shop'],
    ['journey:main', 'main'],
    ['journey:nope', undefined],
    ['journey:', undefined],
    ['shop', undefined],
    ['Journey:shop', undefined],
    [undefined, undefined],
  ])('%s → %s', (payload, slug) => {
    expect(journeyForPayload(exampleBotDefinition, payload)).toBe(slug);
  });
});
