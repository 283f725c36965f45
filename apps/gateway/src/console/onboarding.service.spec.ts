import { describe, expect, it } from '@jest/globals';
import type { OnboardingFacts, OnboardingRepository } from '@platform/database';
import { OnboardingService } from './onboarding.service.js';

const none: OnboardingFacts = { sender: false, syncedTemplate: false, apiKey: false, message: false, webConversation: false, publishedVersion: false };

/** A repository that answers the facts given, for the bot given only. */
function fakeRepo(botId: string, facts: OnboardingFacts): OnboardingRepository {
  return { facts: async (id: string) => (id === botId ? facts : none) } as unknown as OnboardingRepository;
}

describe('OnboardingService', () => {
  it('lists the six steps in order, none done for a new bot', async () => {
    const view = await new OnboardingService(fakeRepo('b1', none)).checklist('b1');
    expect(view.steps.map((s) => s.id)).toEqual(['sender', 'templates', 'apiKey', 'testMessage', 'chat', 'publish']);
    expect(view).toMatchObject({ done: 0, complete: false });
    expect(view.steps.every((s) => !s.done)).toBe(true);
  });

  it('ticks each step from its own fact', async () => {
    const view = await new OnboardingService(fakeRepo('b1', { ...none, syncedTemplate: true, webConversation: true })).checklist('b1');
    expect(view.steps.filter((s) => s.done).map((s) => s.id)).toEqual(['templates', 'chat']);
    expect(view).toMatchObject({ done: 2, complete: false });
  });

  it('is complete when every fact is there', async () => {
    const all = Object.fromEntries(Object.keys(none).map((k) => [k, true])) as unknown as OnboardingFacts;
    expect(await new OnboardingService(fakeRepo('b1', all)).checklist('b1')).toMatchObject({ done: 6, complete: true });
  });
});
