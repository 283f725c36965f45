import { Bot } from '../api.js';
import { href } from '../router.js';
import { SendersPage } from './whatsapp-senders.js';
import { TemplatesPage } from './whatsapp-templates.js';
import { TestCarouselPage } from './whatsapp-test-carousel.js';

const TABS: Array<{ path: string; label: string }> = [
  { path: 'senders', label: 'Senders' },
  { path: 'templates', label: 'Templates' },
  { path: 'test-carousel', label: 'Test carousel' },
];

/** WhatsApp → Senders | Templates | Test carousel. */
export function WhatsAppPage({ bot, sub }: { bot: Bot; sub: string }) {
  const current = TABS.find((t) => t.path === sub) ?? TABS[0]!;
  return (
    <section>
      <h1>WhatsApp · {current.label}</h1>
      <nav aria-label="WhatsApp" class="tabs">
        <ul>
          {TABS.map((t) => (
            <li>
              <a href={href('bots', bot.id, 'whatsapp', t.path)} aria-current={t.path === current.path ? 'page' : undefined}>
                {t.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {current.path === 'templates' ? <TemplatesPage bot={bot} /> : current.path === 'test-carousel' ? <TestCarouselPage bot={bot} /> : <SendersPage bot={bot} />}
    </section>
  );
}
