// Answer of GET /v1/bots/:botId/onboarding: the console's first-run checklist, each step read from the bot's data.

/** The checklist's steps, in the order a new team takes them. */
export const ONBOARDING_STEPS = ['sender', 'templates', 'apiKey', 'testMessage', 'chat', 'publish'] as const;
export type OnboardingStepId = (typeof ONBOARDING_STEPS)[number];

export interface OnboardingStep {
  id: OnboardingStepId;
  /** True once the bot's data shows the step was taken (never a flag the console sets). */
  done: boolean;
}

export interface OnboardingView {
  steps: OnboardingStep[];
  /** Steps done, of `steps.length`. */
  done: number;
  complete: boolean;
}
