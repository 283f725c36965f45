import { Injectable } from '@nestjs/common';
import { ONBOARDING_STEPS, type OnboardingStepId, type OnboardingView } from '@platform/contracts';
import { OnboardingRepository, type OnboardingFacts } from '@platform/database';

/** Which fact of the bot's data shows each checklist step taken. */
const EVIDENCE: Record<OnboardingStepId, keyof OnboardingFacts> = {
  sender: 'sender',
  templates: 'syncedTemplate',
  apiKey: 'apiKey',
  testMessage: 'message',
  chat: 'webConversation',
  publish: 'publishedVersion',
};

/**
 * The console's first-run checklist. Every tick comes from the bot's own rows (a sender exists, a template
 * was synced, ...), so a step taken through the API or the CLI ticks too, and nothing needs storing.
 */
@Injectable()
export class OnboardingService {
  constructor(private readonly repo: OnboardingRepository) {}

  async checklist(botId: string): Promise<OnboardingView> {
    const facts = await this.repo.facts(botId);
    const steps = ONBOARDING_STEPS.map((id) => ({ id, done: facts[EVIDENCE[id]] }));
    const done = steps.filter((s) => s.done).length;
    return { steps, done, complete: done === steps.length };
  }
}
