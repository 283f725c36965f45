import { useState } from 'preact/hooks';
import type { OnboardingStepId, OnboardingView } from '@platform/contracts/views';
import { Bot, api } from './api.js';
import { Icon } from './icon.js';
import { Circle, CircleCheck, X } from './icons.js';
import { href } from './router.js';
import { useLoad } from './ui.js';

/** Each step's words and where it is taken. */
const STEPS: Record<OnboardingStepId, { label: string; hint: string; link: (botId: string) => string; newTab?: boolean }> = {
  sender: { label: 'Add a sender', hint: 'The WhatsApp number your messages leave from.', link: (id) => href('bots', id, 'whatsapp', 'senders') },
  templates: { label: 'Sync templates', hint: 'Read your approved carousels from Meta.', link: (id) => href('bots', id, 'whatsapp', 'templates') },
  apiKey: { label: 'Generate a key', hint: 'Your back end calls the API with it.', link: (id) => href('bots', id, 'settings', 'api-keys') },
  testMessage: { label: 'Send a test', hint: 'A carousel to your own phone.', link: (id) => href('bots', id, 'whatsapp', 'test-carousel') },
  chat: { label: 'Open the chat', hint: 'Talk to the bot on its web chat page (a new tab).', link: (id) => chatLink(id), newTab: true },
  publish: { label: 'Publish a bot', hint: 'Build a journey and publish it.', link: (id) => href('bots', id, 'builder') },
};

/** The hosted chat page as a tester of this browser: a chat user id of its own (the page needs one), kept for the page's life. */
let tester: string | undefined;
function chatLink(botId: string): string {
  tester ??= `console_${[...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  return `/web/bot?botId=${encodeURIComponent(botId)}&enableSpeech=false#ymAuthenticationToken=${tester}`;
}

const dismissedKey = (botId: string) => `bp-console-onboarding-dismissed:${botId}`;
function readDismissed(botId: string): boolean {
  try {
    return localStorage.getItem(dismissedKey(botId)) === '1';
  } catch {
    return false; // storage blocked: the checklist shows, and Dismiss hides it for this page's life
  }
}

/**
 * The first-run checklist on the home page: each step ticked from the bot's real data (GET …/onboarding),
 * so a step taken anywhere (API, CLI, another member) ticks too. It goes away when every step is done, or
 * when dismissed (remembered in this browser: a preference, not a secret).
 */
export function Onboarding({ bot }: { bot: Bot }) {
  const [dismissed, setDismissed] = useState(() => readDismissed(bot.id));
  const { data } = useLoad(() => (dismissed ? Promise.resolve(null) : api<OnboardingView>('GET', `/v1/bots/${bot.id}/onboarding`)), [bot.id, dismissed]);
  // A failed read hides the checklist: it is a help, not the page.
  if (dismissed || !data || data.complete) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(dismissedKey(bot.id), '1');
    } catch {
      /* not remembered past this page */
    }
    setDismissed(true);
  };
  return (
    <section class="onboarding" aria-labelledby="onboarding-title" data-testid="onboarding">
      <header>
        <h2 id="onboarding-title">Get started with {bot.name}</h2>
        <span class="muted" aria-hidden="true">
          {data.done} of {data.steps.length} done
        </span>
        <button type="button" class="secondary outline small with-icon" onClick={dismiss}>
          <Icon node={X} />
          Dismiss the checklist
        </button>
      </header>
      <progress value={data.done} max={data.steps.length} aria-label={`${data.done} of ${data.steps.length} steps done`} />
      <ol>
        {data.steps.map((s) => {
          const step = STEPS[s.id];
          return (
            <li class={s.done ? 'done' : undefined} data-step={s.id} data-done={String(s.done)}>
              <Icon node={s.done ? CircleCheck : Circle} />
              <div>
                <a class="step" href={step.link(bot.id)} target={step.newTab ? '_blank' : undefined} rel={step.newTab ? 'noopener' : undefined}>
                  {step.label}
                </a>
                <span class="visually-hidden">{s.done ? ' (done)' : ' (to do)'}</span>
                <small>{step.hint}</small>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
